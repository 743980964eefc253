import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The empty database cluster a new embedded database starts from (ADR 0030).
 *
 * PGlite makes a new cluster by running initdb: about 4 s on a small machine, most of an embedded cold start, and
 * the same work every time for one version of PGlite (it takes no settings of ours). The first new database of a
 * PGlite version on a machine runs it and keeps the result, a tar of the data directory before any schema of ours,
 * in the user's cache directory (`$XDG_CACHE_HOME/dsar`, else `~/.cache/dsar`); a later new database (a fresh
 * DATA_DIR, a `memory://` one in the tests) is unpacked from it in well under a second, then migrated as always.
 * Without a writable cache directory every new database runs initdb, as before.
 */

function pgliteVersion(): string {
  // The package exports no package.json: it is read beside its entry (dist/index.cjs).
  const entry = require.resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(entry), '../package.json'), 'utf8')) as { version: string }).version;
}

/** Where the template of the installed PGlite version is kept. */
export function clusterTemplateFile(): string {
  const cacheRoot = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cacheRoot, 'dsar', `pglite-${pgliteVersion()}-cluster.tar`);
}

/** The template's bytes, or undefined when there is none (yet) or it cannot be read. */
export function readClusterTemplate(): Buffer | undefined {
  try {
    return readFileSync(clusterTemplateFile());
  } catch {
    return undefined;
  }
}

/** Forgets a template that PGlite could not start from (the next new database makes another). */
export function dropClusterTemplate(): void {
  rmSync(clusterTemplateFile(), { force: true });
}

/**
 * Keeps the cluster of a database that initdb just made, before anything is written to it, as the template. Written
 * to a temporary file and renamed, so that a reader (another process starting at the same time) never sees a part
 * of one. A failure (no writable cache directory) only means the next new database runs initdb too.
 */
export async function keepClusterTemplate(db: PGlite): Promise<void> {
  const file = clusterTemplateFile();
  const partial = `${file}.${process.pid}.partial`;
  try {
    const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(partial, tar, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    try {
      rmSync(partial, { force: true });
    } catch {
      // Nothing was written where nothing can be.
    }
  }
}

/**
 * Unpacks the template into an empty data directory, for PGlite to open as an existing cluster. PGlite could unpack
 * it itself (`loadDataDir`), but on disk it then runs that first session several times slower (4× on DDL, measured)
 * and needs a second opening. The tar is the one PGlite's dumpDataDir writes: ustar, directories and regular files.
 *
 * The directories are made at once and every file write is handed to libuv's thread pool before this returns, so
 * the unpacking goes on while the caller's thread does other work (embedded mode loads its modules meanwhile).
 */
export function unpackClusterTemplate(tar: Buffer, dataDir: string): Promise<void> {
  // Unpacked beside it and moved into place whole: a start cut short never leaves a directory that looks like a cluster.
  const staging = `${dataDir}.${process.pid}.unpacking`;
  const finish = async (): Promise<void> => {
    try {
      await Promise.all(untar(tar, staging).map((f) => writeFile(f.path, f.content, { mode: f.mode })));
      if (!existsSync(join(staging, 'PG_VERSION'))) throw new Error('the cluster template holds no cluster');
      await rm(dataDir, { recursive: true, force: true });
      await rename(staging, dataDir);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  };
  try {
    rmSync(staging, { recursive: true, force: true });
    return finish();
  } catch (e) {
    return Promise.reject(e);
  }
}

interface TarFile {
  path: string;
  content: Buffer;
  mode: number;
}

/** Makes the directories of the tar under `dir` and returns its files, to be written. */
function untar(tar: Buffer, dir: string): TarFile[] {
  const BLOCK = 512;
  const files: TarFile[] = [];
  const made = new Set<string>();
  const makeDir = (path: string, mode = 0o700) => {
    if (made.has(path)) return;
    mkdirSync(path, { recursive: true, mode });
    made.add(path);
  };
  makeDir(dir);
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const field = (offset: number, length: number): string =>
      header
        .subarray(offset, offset + length)
        .toString('utf8')
        .replace(/\0[\s\S]*$/, '');
    const path = [field(345, 155), field(0, 100)].filter(Boolean).join('/');
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0 || parts.includes('..')) throw new Error(`unexpected path in the cluster template: ${JSON.stringify(path)}`);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const mode = parseInt(field(100, 8).trim() || '0', 8) & 0o777;
    const type = String.fromCharCode(header[156]);
    const target = join(dir, ...parts);
    if (type === '5') {
      makeDir(target, mode);
    } else if (type === '0' || type === '\0') {
      makeDir(dirname(target));
      files.push({ path: target, content: tar.subarray(at + BLOCK, at + BLOCK + size), mode });
    } else {
      throw new Error(`unexpected entry type ${JSON.stringify(type)} in the cluster template (${path})`);
    }
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
