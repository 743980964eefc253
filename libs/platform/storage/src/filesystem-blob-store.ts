import { randomBytes } from 'node:crypto';
import { createWriteStream, fdatasync, constants as fsConstants, type Stats, type WriteStream } from 'node:fs';
import { type FileHandle, link, lstat, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertBlobKey, assertBlobPrefix, isBlobKey } from './blob-key';
import { assertByteRange, type BlobStat, type BlobStore, type ByteRange, clampRange, type ReadOptions } from './blob-store';
import { BlobNotFoundError } from './errors';
import { giveBackAlignedBuffers, takeAlignedBuffers } from './aligned-buffers';
import { DIRECT_WRITE_BUFFERS, DIRECT_WRITE_WINDOW, DirectFileWriter } from './direct-file-writer';
import { directPieces, directWindowSize, FileRangeStream, READS_IN_FLIGHT } from './file-range-stream';

/**
 * A ranged read of at least this many bytes (an artifact's body, not a header or a key) bypasses the page cache
 * (O_DIRECT) where the file system allows it: on the benchmark machine the kernel spent about 1 s of CPU per GiB
 * filling the page cache with a file read from the disk, and under 0.2 s reading it directly (docs/performance.md).
 * Such a file is read once or twice, by a reviewer or the data subject: caching it would only push out the database's
 * pages. Smaller reads, and whole-file reads, go through the page cache.
 */
const DIRECT_READ_MIN_BYTES = 8 * 1024 * 1024;

/** Bytes per read of a file stream, unless the reader asks for other pieces (bounded either way). */
const DEFAULT_READ_PIECE = 64 * 1024;
const MIN_READ_PIECE = 16 * 1024;
const MAX_READ_PIECE = 4 * 1024 * 1024;

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/** Temporary names hold `~`, which no key may: they never collide with an object and `list` skips them. */
const tempName = (): string => `~tmp-${randomBytes(12).toString('hex')}`;

const ABSENT = new Set(['ENOENT', 'ENOTDIR']);
const codeOf = (e: unknown): string | undefined => (e as NodeJS.ErrnoException)?.code;
const isAbsent = (e: unknown): boolean => ABSENT.has(codeOf(e) ?? '');

/** A key's lock file sits beside it under the key's name and this suffix (`~`, like temporary names, is in no key). */
const LOCK_SUFFIX = '~lock';
/**
 * A lock is held for a rename, an unlink or the read of a small file: one older than this was left by a process
 * that died holding it, and is broken.
 */
const STALE_LOCK_MS = 30_000;
/** How long a change waits for the lock of its key before it fails. */
const LOCK_TIMEOUT_MS = 60_000;

/**
 * Blobs as files under `rootDir`, one file per key (the key's `/` are
 * directories). A write goes to a temporary file in the target's directory,
 * is flushed to disk, then renamed over the target (or hard-linked for
 * `writeIfAbsent`, which fails when the target exists): readers see the old
 * file or the new one, and a crash leaves at most a `~tmp-` file. Files are
 * 0600 and directories 0700: only the service's user reads them.
 *
 * `write`, `delete` and `replaceIfUnchanged` make their change (the rename or
 * the unlink, not the copy of the bytes) holding the key's lock, a
 * `<name>~lock` file beside it created exclusively (`O_EXCL`), so that a
 * compare-and-swap cannot be overtaken between its comparison and its rename,
 * by this process or another sharing the directory. A lock left by a process
 * that died holding it is broken after 30 seconds.
 */
export class FilesystemBlobStore implements BlobStore {
  readonly rootDir: string;
  /** False once the file system refused to open a file for direct reads (O_DIRECT). */
  private directReads = true;
  /** False once the file system refused to create a file for direct writes (O_DIRECT). */
  private directWrites = true;

  constructor(rootDir: string) {
    this.rootDir = resolve(rootDir);
  }

  async write(key: string, source: Readable): Promise<void> {
    assertBlobKey(key);
    const target = this.pathOf(key);
    const temp = await this.writeTemp(target, source);
    try {
      await this.locked(target, () => rename(temp, target));
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

  async replaceIfUnchanged(key: string, expected: Buffer, replacement: Buffer): Promise<boolean> {
    assertBlobKey(key);
    const target = this.pathOf(key);
    let temp: string;
    try {
      // No directory is made: without one, there is no object to replace.
      temp = await this.writeTemp(target, Readable.from([replacement], { objectMode: false }), { makeDir: false });
    } catch (e) {
      if (isAbsent(e)) return false;
      throw e;
    }
    try {
      const swapped = await this.locked(target, async () => {
        if (!(await contentOfLength(target, expected.length))?.equals(expected)) return false;
        await rename(temp, target);
        return true;
      });
      if (swapped) await syncDir(dirname(target));
      return swapped;
    } catch (e) {
      if (isAbsent(e)) return false;
      throw e;
    } finally {
      await removeQuietly(temp); // gone already when it was renamed
    }
  }

  async read(key: string, range?: ByteRange, options: ReadOptions = {}): Promise<Readable> {
    assertBlobKey(key);
    if (range) assertByteRange(range);
    // One read per piece the reader wants (an encrypted chunk): no piece is then split and joined again.
    const pieceSize = Math.min(Math.max(options.pieceSize ?? DEFAULT_READ_PIECE, MIN_READ_PIECE), MAX_READ_PIECE);
    const large = range !== undefined && range.end - range.start + 1 >= DIRECT_READ_MIN_BYTES && this.directReads;
    // Without free aligned buffers (many direct reads at once) the read goes through the page cache.
    let buffers = large ? takeAlignedBuffers(READS_IN_FLIGHT, directWindowSize(pieceSize)) : undefined;
    let handle: FileHandle;
    try {
      handle = await this.openForRead(key, buffers !== undefined);
    } catch (e) {
      if (buffers) giveBackAlignedBuffers(buffers);
      if (isAbsent(e)) throw new BlobNotFoundError(key);
      throw e;
    }
    if (buffers && !this.directReads) {
      giveBackAlignedBuffers(buffers);
      buffers = undefined;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new BlobNotFoundError(key);
      // The open handle keeps reading this version even if the name is replaced or removed meanwhile.
      const bounds = range ? clampRange(range, info.size) : undefined;
      const reader = buffers ? directPieces(handle, buffers, giveBackAlignedBuffers) : undefined;
      return new FileRangeStream(handle, bounds?.start ?? 0, bounds?.end ?? info.size - 1, pieceSize, reader);
    } catch (e) {
      if (buffers) giveBackAlignedBuffers(buffers);
      await handle.close();
      throw e;
    }
  }

  /**
   * The key's file, opened for direct reads when asked and the file system allows it; one that refuses (EINVAL) is
   * remembered (`directReads`) and read through the page cache from then on.
   */
  private async openForRead(key: string, direct: boolean): Promise<FileHandle> {
    if (direct) {
      try {
        return await open(this.pathOf(key), fsConstants.O_RDONLY | fsConstants.O_DIRECT);
      } catch (e) {
        if (codeOf(e) !== 'EINVAL') throw e;
        this.directReads = false;
      }
    }
    return open(this.pathOf(key), fsConstants.O_RDONLY);
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    assertBlobKey(key);
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : undefined;
    } catch (e) {
      if (isAbsent(e)) return undefined;
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    const target = this.pathOf(key);
    try {
      await this.locked(target, () => unlink(target));
    } catch (e) {
      // EISDIR/EPERM: the key is a "folder" of other keys, so no object of that name exists.
      if (isAbsent(e) || codeOf(e) === 'EISDIR' || codeOf(e) === 'EPERM') return;
      throw e;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertBlobPrefix(prefix);
    const dir = this.pathOf(prefix.slice(0, -1));
    try {
      if (!(await lstat(dir)).isDirectory()) return; // an object of that name is not under the prefix
    } catch (e) {
      if (isAbsent(e)) return;
      throw e;
    }
    // Renamed away first so that every key under it disappears at once; the removal then takes its time.
    const trash = join(this.rootDir, tempName());
    try {
      await rename(dir, trash);
    } catch (e) {
      if (isAbsent(e)) return;
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
      if (isAbsent(e)) return;
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

  /**
   * Runs `work` holding the lock of the key whose file is `target`. Rejects with ENOENT or ENOTDIR when the key's
   * directory does not exist, and after LOCK_TIMEOUT_MS of waiting.
   */
  private async locked<T>(target: string, work: () => Promise<T>): Promise<T> {
    const lock = `${target}${LOCK_SUFFIX}`;
    const deadline = performance.now() + LOCK_TIMEOUT_MS;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      try {
        await (await open(lock, 'wx', FILE_MODE)).close();
        break;
      } catch (e) {
        if (codeOf(e) !== 'EEXIST') throw e;
      }
      await breakIfStale(lock);
      if (performance.now() > deadline) throw new Error(`Timed out waiting for the lock ${lock}`);
      await sleep(pause * (1 + Math.random()));
    }
    try {
      return await work();
    } finally {
      await removeQuietly(lock);
    }
  }

  /** Writes `source` to a new temporary file next to `target`, flushed to disk; removes it again on any failure. */
  private async writeTemp(target: string, source: Readable, options: { makeDir?: boolean } = {}): Promise<string> {
    const dir = dirname(target);
    try {
      if (options.makeDir ?? true) await mkdir(dir, { recursive: true, mode: DIR_MODE });
    } catch (e) {
      source.destroy();
      throw e;
    }
    const temp = join(dir, tempName());
    try {
      await this.writeNewFile(temp, source);
    } catch (e) {
      if (!source.destroyed) source.destroy();
      await removeQuietly(temp);
      throw e;
    }
    return temp;
  }

  /**
   * Creates `path` with the bytes of `source`, flushed to disk. A file of more than DIRECT_WRITE_WINDOW bytes (an
   * artifact, not a key or a small blob: the first window is read before anything is written) is written past the
   * page cache (O_DIRECT, ADR 0034) where the file system allows it and the process has aligned buffers free; any
   * other through the page cache.
   */
  private async writeNewFile(path: string, source: Readable): Promise<void> {
    const pieces = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    const head: Uint8Array[] = [];
    let headBytes = 0;
    // Direct unless the file system refused it, or the file ends within the first window.
    let direct = this.directWrites;
    while (direct && headBytes <= DIRECT_WRITE_WINDOW) {
      const next = await pieces.next();
      if (next.done) direct = false;
      else {
        head.push(next.value);
        headBytes += next.value.length;
      }
    }
    const all: AsyncIterable<Uint8Array> = (async function* () {
      yield* head;
      head.length = 0;
      yield* { [Symbol.asyncIterator]: () => pieces };
    })();
    const buffers = direct ? takeAlignedBuffers(DIRECT_WRITE_BUFFERS, DIRECT_WRITE_WINDOW) : undefined;
    if (buffers) {
      try {
        if (await this.writeDirect(path, all, buffers)) return;
      } finally {
        giveBackAlignedBuffers(buffers);
      }
    }
    // flush: fsync before close, so the rename never publishes a name whose bytes are not on disk yet.
    const file = createWriteStream(path, { flags: 'wx', mode: FILE_MODE, flush: true });
    await pipeline(Readable.from(all, { objectMode: false }), earlyWriteback(file), file);
  }

  /**
   * Writes `pieces` to a new file `path` opened with O_DIRECT; false (and no file) when the file system refuses
   * O_DIRECT (EINVAL), which is remembered: files are then written through the page cache.
   */
  private async writeDirect(path: string, pieces: AsyncIterable<Uint8Array>, buffers: Buffer[]): Promise<boolean> {
    let handle: FileHandle;
    try {
      handle = await open(path, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_DIRECT, FILE_MODE);
    } catch (e) {
      if (codeOf(e) !== 'EINVAL') throw e;
      // Linux may create the file before it looks at O_DIRECT.
      await removeQuietly(path);
      this.directWrites = false;
      return false;
    }
    const writer = new DirectFileWriter(handle, buffers);
    try {
      for await (const piece of pieces) await writer.write(piece);
      await writer.finish();
    } finally {
      // The buffers go back to the pool after this: no write may still be reading them.
      await writer.settle();
      await handle.close();
    }
    return true;
  }
}

/** Bytes written between two early flushes of a file being written. */
const EARLY_WRITEBACK_BYTES = 32 * 1024 * 1024;

/**
 * Passes a file's bytes on to its write stream, and every EARLY_WRITEBACK_BYTES asks the kernel to write what it
 * holds of the file to disk (fdatasync, one at a time, while the writing goes on). The final fsync then finds little
 * left to do: a large file's bytes reach the disk while it is still being received, rather than all after its last
 * byte (a 1 GiB file waited 1–2 s for it on the benchmark machine's disk), and the page cache never holds more than a
 * few tens of MiB of it unwritten. Durability is unchanged: the stream's own fsync still comes before the rename.
 */
function earlyWriteback(file: WriteStream): Transform {
  // The descriptor a WriteStream holds once open (Node sets it; its typings leave it out).
  const fdOf = () => (file as WriteStream & { fd?: number | null }).fd;
  let sinceFlush = 0;
  let flushing: Promise<void> | undefined;
  const flush = (fd: number) =>
    new Promise<void>((resolve) => fdatasync(fd, () => resolve())).finally(() => {
      flushing = undefined;
    });
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sinceFlush += chunk.length;
      const fd = fdOf();
      if (sinceFlush >= EARLY_WRITEBACK_BYTES && flushing === undefined && typeof fd === 'number') {
        sinceFlush = 0;
        flushing = flush(fd);
      }
      done(null, chunk);
    },
    // The file is closed only after its last byte: a flush still running must end first.
    flush(done) {
      if (flushing) void flushing.then(() => done());
      else done();
    },
  });
}

/** The file's bytes when it is a file of exactly `length` bytes; undefined when it is absent, a directory or of another length. */
async function contentOfLength(path: string, length: number): Promise<Buffer | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, fsConstants.O_RDONLY);
  } catch (e) {
    if (isAbsent(e)) return undefined;
    throw e;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size !== length) return undefined;
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, 0);
    return bytesRead === length ? bytes : undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Removes a lock whose holder died (older than STALE_LOCK_MS). It is renamed aside first, so that of several waiters
 * breaking it at once one does; should the lock renamed be another than the stale one seen (released and taken again
 * meanwhile), it is put back.
 */
async function breakIfStale(lock: string): Promise<void> {
  let seen: Stats;
  try {
    seen = await stat(lock);
  } catch (e) {
    if (isAbsent(e)) return;
    throw e;
  }
  if (Date.now() - seen.mtimeMs < STALE_LOCK_MS) return;
  const aside = `${lock}-${tempName()}`;
  try {
    await rename(lock, aside);
  } catch (e) {
    if (isAbsent(e)) return;
    throw e;
  }
  try {
    const moved = await stat(aside);
    if (moved.ino !== seen.ino || moved.dev !== seen.dev) await link(aside, lock).catch(() => undefined);
  } finally {
    await removeQuietly(aside);
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
