import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirSecret, IN_MEMORY_DATA_DIR_PREFIX } from '@dsar/platform/config';
import { MIN_API_KEY_LENGTH } from './api-keys';

export const DEV_TOKEN_FILE = 'dev-token';
/** The second development key's file: a reviewer, so that four eyes on manifest review can be met on a first start. */
export const REVIEWER_TOKEN_FILE = 'reviewer-token';

export interface DevToken {
  token: string;
  /** The file holding the token; absent when nothing was written (in-memory data). */
  path?: string;
  /** Whether the token was generated now rather than read back. */
  created: boolean;
}

const generateDevToken = () => `dsar_dev_${randomBytes(32).toString('base64url')}`;
const generateReviewerToken = () => `dsar_reviewer_${randomBytes(32).toString('base64url')}`;

/**
 * The token embedded mode accepts as an admin key. It is kept under the data
 * directory so it survives restarts along with the data it guards; with
 * in-memory data there is nothing to survive, so a fresh token is made each time.
 */
export async function ensureDevToken(dataDir: string): Promise<DevToken> {
  const { value, path, created } = await dataDirSecret(dataDir, DEV_TOKEN_FILE, generateDevToken, checkToken);
  return { token: value, path, created };
}

/**
 * The token embedded mode accepts as the development reviewer's key (an operator of tenant `default`, a principal
 * other than the admin key's), kept beside dev-token in the data directory, and fresh each time with in-memory data.
 */
export async function ensureReviewerToken(dataDir: string): Promise<DevToken> {
  const { value, path, created } = await dataDirSecret(dataDir, REVIEWER_TOKEN_FILE, generateReviewerToken, checkToken);
  return { token: value, path, created };
}

/** The token a file holds; a hand-edited, too short one would become a weak admin key, so it is refused rather than used. */
function checkToken(content: string, path: string): string {
  const token = content.trim();
  if (token.length < MIN_API_KEY_LENGTH) {
    throw new Error(`${path} holds a token shorter than ${MIN_API_KEY_LENGTH} characters; delete the file to have a new one generated.`);
  }
  return token;
}

/**
 * The development key's file in DATA_DIR (`file`: dev-token, or reviewer-token), when one is there: with authentication configured the key in it is no longer
 * accepted, and an operator who still reads it gets a 401 without knowing why. The file is left in place (it is a
 * secret someone may still want, and the next start without authentication takes it up again); the runner names it.
 */
export async function leftoverDevTokenFile(dataDir: string, file: string = DEV_TOKEN_FILE): Promise<string | undefined> {
  if (dataDir.startsWith(IN_MEMORY_DATA_DIR_PREFIX)) return undefined;
  const path = join(dataDir, file);
  try {
    await access(path);
    return path;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
