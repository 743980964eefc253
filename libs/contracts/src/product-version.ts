import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The product's version, read from the root package.json, which the build copies beside its output
 * (tools/scripts/build.ts), so this path holds in the repository and in the image. The CLI's `--version` and the
 * OpenAPI document's `info.version` both come from here: a release changes one line.
 */
export const PRODUCT_VERSION: string = (JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string }).version;
