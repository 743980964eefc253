import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** DATA_DIR values that keep nothing on disk (tests, throw-away runs). */
export const IN_MEMORY_DATA_DIR_PREFIX = 'memory://';

export interface DataDirSecret {
  value: string;
  /** The file holding it; absent when nothing was written (in-memory data). */
  path?: string;
  /** Whether it was made now rather than read back. */
  created: boolean;
}

/**
 * A development secret kept under DATA_DIR (mode 0600), so it survives
 * restarts along with the data it belongs to: read back when the file exists,
 * made and written once otherwise. With in-memory data a fresh one is made
 * each time. `check` turns the file's text into the secret, or throws when a
 * hand-edited file is unusable.
 */
export async function dataDirSecret(dataDir: string, fileName: string, make: () => string, check: (text: string, path: string) => string = (t) => t): Promise<DataDirSecret> {
  if (dataDir.startsWith(IN_MEMORY_DATA_DIR_PREFIX)) return { value: make(), created: true };
  const path = join(dataDir, fileName);
  const existing = await readIfPresent(path);
  if (existing !== undefined) return { value: check(existing, path), path, created: false };

  const value = make();
  await mkdir(dataDir, { recursive: true });
  try {
    // wx: if another process wrote the file meanwhile, use its secret rather than overwrite it.
    await writeFile(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    const written = (e as NodeJS.ErrnoException).code === 'EEXIST' ? await readIfPresent(path) : undefined;
    if (written === undefined) throw e;
    return { value: check(written, path), path, created: false };
  }
  return { value, path, created: true };
}

async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
