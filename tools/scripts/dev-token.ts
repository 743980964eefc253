import * as path from 'node:path';
import { ensureDevToken } from '@dsar/platform/auth';

/**
 * Prints the development admin token of DATA_DIR (default ./.data) on stdout,
 * the token alone and a newline: the one the embedded runner accepts, kept in
 * DATA_DIR/dev-token and made there on first use. `start-distributed.sh` uses
 * it to give the standalone gateway a key when no authentication is set.
 *
 *   node tools/scripts/run-ts.cjs tools/scripts/dev-token.ts
 */
async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR || path.resolve('.data');
  const { token } = await ensureDevToken(dataDir);
  process.stdout.write(`${token}\n`);
}

main().catch((e) => {
  process.stderr.write(`dev-token failed: ${(e as Error).message}\n`);
  process.exit(1);
});
