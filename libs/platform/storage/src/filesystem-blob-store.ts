import { randomBytes } from 'node:crypto';
import { createWriteStream, constants as fsConstants } from 'node:fs';
import { type FileHandle, link, lstat, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertBlobKey, assertBlobPrefix, isBlobKey } from './blob-key';
import { assertByteRange, type BlobStat, type BlobStore, type ByteRange, clampRange } from './blob-store';
import { BlobNotFoundError } from './errors';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Temporary names hold `~`, which no key may: they never collide with an object and `list` skips them. */
const tempName = (): string => `~tmp-${randomBytes(12).toString('hex')}`;

const ABSENT = new Set(['ENOENT', 'ENOTDIR']);
const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException)?.code;

/**
 * Blobs as files under `rootDir`, one file per key (the key's `/` are
 * directories). A write goes to a temporary file in the target's directory,
 * is flushed to disk, then renamed over the target (or hard-linked for
 * `writeIfAbsent`, which fails when the target exists): readers see the old
 * file or the new one, and a crash leaves at most a `~tmp-` file. Files are
 * 0600 and directories 0700: only the service's user reads them.
 */
export class FilesystemBlobStore implements BlobStore {
  readonly rootDir: string;

  constructor(rootDir: string) {
    this.rootDir = resolve(rootDir);
  }

  async write(key: string, source: Readable): Promise<void> {
    assertBlobKey(key);
    const target = this.pathOf(key);
    const temp = await this.writeTemp(target, source);
    try {
      await rename(temp, target);
    } catch (e) {
      await removeQuietly(temp);
      throw e;
    }
    await syncDir(dirname(target));
  }

  async writeIfAbsent(key: string, source: Readable): Promise<boolean> {
    assertBlobKey(key);
    const target = this.pathOf(key);
    const temp = await this.writeTemp(target, source);
    try {
      // link(2) creates the name only if it is free, atomically, with the complete content behind it.
      await link(temp, target);
    } catch (e) {
      if (codeOf(e) === 'EEXIST') return false;
      throw e;
    } finally {
      await removeQuietly(temp);
    }
    await syncDir(dirname(target));
    return true;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertBlobKey(key);
    if (range) assertByteRange(range);
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), fsConstants.O_RDONLY);
    } catch (e) {
      if (ABSENT.has(codeOf(e) ?? '')) throw new BlobNotFoundError(key);
      throw e;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new BlobNotFoundError(key);
      // The open handle keeps reading this version even if the name is replaced or removed meanwhile.
      const bounds = range ? clampRange(range, info.size) : undefined;
      return handle.createReadStream(bounds ? { start: bounds.start, end: bounds.end } : {});
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    assertBlobKey(key);
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : undefined;
    } catch (e) {
      if (ABSENT.has(codeOf(e) ?? '')) return undefined;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    try {
      await unlink(this.pathOf(key));
    } catch (e) {
      // EISDIR/EPERM: the key is a "folder" of other keys, so no object of that name exists.
      if (ABSENT.has(codeOf(e) ?? '') || codeOf(e) === 'EISDIR' || codeOf(e) === 'EPERM') return;
      throw e;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertBlobPrefix(prefix);
    const dir = this.pathOf(prefix.slice(0, -1));
    try {
      if (!(await lstat(dir)).isDirectory()) return; // an object of that name is not under the prefix
    } catch (e) {
      if (ABSENT.has(codeOf(e) ?? '')) return;
      throw e;
    }
    // Renamed away first so that every key under it disappears at once; the removal then takes its time.
    const trash = join(this.rootDir, tempName());
    try {
      await rename(dir, trash);
    } catch (e) {
      if (ABSENT.has(codeOf(e) ?? '')) return;
      throw e;
    }
    await rm(trash, { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix, { allowEmpty: true });
    yield* this.walk(prefix === '' ? this.rootDir : this.pathOf(prefix.slice(0, -1)), prefix);
  }

  private async *walk(dir: string, keyPrefix: string): AsyncIterable<string> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (ABSENT.has(codeOf(e) ?? '')) return;
      throw e;
    }
    for (const entry of entries) {
      const key = `${keyPrefix}${entry.name}`;
      if (!isBlobKey(key)) continue; // temporary files and trash
      if (entry.isDirectory()) yield* this.walk(join(dir, entry.name), `${key}/`);
      else if (entry.isFile()) yield key;
    }
  }

  private pathOf(key: string): string {
    return join(this.rootDir, ...key.split('/'));
  }

  /** Writes `source` to a new temporary file next to `target`, flushed to disk; removes it again on any failure. */
  private async writeTemp(target: string, source: Readable): Promise<string> {
    const dir = dirname(target);
    try {
      await mkdir(dir, { recursive: true, mode: DIR_MODE });
    } catch (e) {
      source.destroy();
      throw e;
    }
    const temp = join(dir, tempName());
    try {
      // flush: fsync before close, so the rename never publishes a name whose bytes are not on disk yet.
      await pipeline(source, createWriteStream(temp, { flags: 'wx', mode: FILE_MODE, flush: true }));
    } catch (e) {
      await removeQuietly(temp);
      throw e;
    }
    return temp;
  }
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** Flushes a directory entry change (the rename) to disk; best effort, some platforms cannot open directories. */
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
    // Durability of the name only; the data itself was flushed before the rename.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
