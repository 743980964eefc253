import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MIN_API_KEY_LENGTH } from './api-keys';

export const DEV_TOKEN_FILE = 'dev-token';
const IN_MEMORY_PREFIX = 'memory://';

export interface DevToken {
  token: string;
  /** The file holding the token; absent when nothing was written (in-memory data). */
  path?: string;
  /** Whether the token was generated now rather than read back. */
  created: boolean;
}

const generateDevToken = () => `dsar_dev_${randomBytes(32).toString('base64url')}`;

/**
 * The token embedded mode accepts as an admin key. It is kept under the data
 * directory so it survives restarts along with the data it guards; with
 * in-memory data there is nothing to survive, so a fresh token is made each time.
 */
export async function ensureDevToken(dataDir: string): Promise<DevToken> {
  if (dataDir.startsWith(IN_MEMORY_PREFIX)) return { token: generateDevToken(), created: true };
  const path = join(dataDir, DEV_TOKEN_FILE);
  const existing = await readTokenFile(path);
  if (existing !== undefined) return { token: existing, path, created: false };

  const token = generateDevToken();
  await mkdir(dataDir, { recursive: true });
  try {
    // wx: if another process wrote the file meanwhile, use its token rather than overwrite it.
    await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    const written = (e as NodeJS.ErrnoException).code === 'EEXIST' ? await readTokenFile(path) : undefined;
    if (written === undefined) throw e;
    return { token: written, path, created: false };
  }
  return { token, path, created: true };
}

async function readTokenFile(path: string): Promise<string | undefined> {
  let content: string;
  try {
    content = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const token = content.trim();
  // A hand-edited, too short token would become a weak admin key; refuse it rather than use it.
  if (token.length < MIN_API_KEY_LENGTH) {
    throw new Error(`${path} holds a token shorter than ${MIN_API_KEY_LENGTH} characters; delete the file to have a new one generated.`);
  }
  return token;
}
