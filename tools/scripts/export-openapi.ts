import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { buildOpenApiDocument } from '@dsar/services/api-gateway';

/**
 * Writes the OpenAPI document of the public API to docs/api/openapi.json, the
 * same document the gateway serves at /api/v1/openapi.json. A unit test
 * (openapi-doc.spec.ts) fails when the committed file is out of date:
 *
 *   node tools/scripts/run-ts.cjs tools/scripts/export-openapi.ts
 */
export const OPENAPI_JSON_PATH = path.resolve(__dirname, '../../docs/api/openapi.json');

/** The file's exact content: pretty JSON, two spaces, trailing newline. */
export function renderOpenApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

async function main(): Promise<void> {
  await mkdir(path.dirname(OPENAPI_JSON_PATH), { recursive: true });
  await writeFile(OPENAPI_JSON_PATH, renderOpenApiJson());
  process.stdout.write(`wrote ${path.relative(process.cwd(), OPENAPI_JSON_PATH) || OPENAPI_JSON_PATH}\n`);
}

// Run only as the entry point (run-ts.cjs puts it in argv[1]), not when a test imports the helpers above.
if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === __filename) {
  main().catch((e) => {
    process.stderr.write(`export-openapi failed: ${(e as Error).message}\n`);
    process.exit(1);
  });
}
