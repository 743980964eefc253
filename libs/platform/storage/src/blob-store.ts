import type { Readable } from 'node:stream';
import { RangeNotSatisfiableError } from './errors';

/** Bytes `start` to `end` of an object, both included (as in HTTP `Range: bytes=start-end`, S3 and fs streams). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStat {
  /** Length in bytes. */
  size: number;
}

/**
 * The raw byte store under the encrypted storage: no cryptography, no
 * tenants, only keys (see `assertBlobKey`) and bytes. One driver per backend:
 * `FilesystemBlobStore`, `MemoryBlobStore` and `S3BlobStore` (multipart
 * upload for `write`, `If-None-Match: *` for `writeIfAbsent`, `If-Match`
 * for `replaceIfUnchanged`, `Range` for `read`, a paginated `ListObjectsV2`
 * for `list`). Every driver passes
 * `describeBlobStoreContract` (from `@dsar/platform/storage/testing`).
 *
 * Rules every driver keeps:
 * - An invalid key or range is a programming error: the call rejects with
 *   `InvalidKeyError` (or `RangeError`) before touching anything.
 * - Writes are atomic: a reader sees the previous object or the whole new
 *   one, never a part; a failed write leaves nothing new behind (no partial
 *   object, no temporary file) and the previous object intact.
 * - The source is consumed with backpressure, so memory stays bounded
 *   whatever its size; when the write fails the source is destroyed, and the
 *   promise rejects with the source's own error when the source failed.
 * - A key is an object or a "folder" (a prefix of other keys), never both:
 *   `a` and `a/b` cannot exist together on a file system (S3 would allow
 *   it; callers never rely on it).
 */
export interface ReadOptions {
  /** Bytes per piece the reader would like the stream to give; a hint. */
  pieceSize?: number;
}

export interface BlobStore {
  /** Stores the bytes of `source` under `key`, replacing any object there. */
  write(key: string, source: Readable): Promise<void>;

  /**
   * Stores `source` under `key` only if no object is there (create-if-absent);
   * resolves `false`, keeping the existing object, otherwise. Atomic among
   * concurrent writers: exactly one of them gets `true`. Meant for small
   * objects (the tenant keys): when it resolves `false` the source has been
   * consumed or destroyed.
   */
  writeIfAbsent(key: string, source: Readable): Promise<boolean>;

  /**
   * Compare-and-swap of a small object (a tenant key): stores `replacement`
   * under `key` only if the object there holds exactly the bytes `expected`;
   * resolves `false`, changing nothing, when it holds other bytes or is
   * absent (it never creates one). Atomic with respect to every other
   * `write`, `delete` and `replaceIfUnchanged` of the key, in this process
   * or another sharing the store: of concurrent swaps from the same bytes,
   * exactly one gets `true`, and a swap never brings back a deleted object.
   */
  replaceIfUnchanged(key: string, expected: Buffer, replacement: Buffer): Promise<boolean>;

  /**
   * The object's bytes, or those of `range` (its end is clamped to the
   * object's last byte). Rejects with `BlobNotFoundError` when absent and with
   * `RangeNotSatisfiableError` when the range starts at or after the end.
   * The stream reads the object as it was when `read` resolved, even if it is
   * replaced or deleted meanwhile (a driver that cannot promise that fails the
   * stream instead of mixing versions). `options.pieceSize` is the size of the
   * pieces the reader wants (one encrypted chunk, say): a hint a driver that
   * reads in pieces of its own choosing may follow.
   */
  read(key: string, range?: ByteRange, options?: ReadOptions): Promise<Readable>;

  /** The object's size, or `undefined` when there is none. */
  stat(key: string): Promise<BlobStat | undefined>;

  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;

  /** Removes every object whose key starts with `prefix` (a key followed by `/`). */
  deletePrefix(prefix: string): Promise<void>;

  /** The keys under `prefix` (a key followed by `/`, or `''` for all), in no particular order. */
  list(prefix: string): AsyncIterable<string>;
}

/** Throws RangeError unless `range` is two integers with 0 ≤ start ≤ end. */
export function assertByteRange(range: ByteRange): void {
  const { start, end } = range ?? ({} as ByteRange);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`A byte range needs integers 0 <= start <= end, got ${JSON.stringify(range)}`);
  }
}

/** The range a driver reads: end clamped to the last byte; RangeNotSatisfiableError when it starts at or after the end. */
export function clampRange(range: ByteRange, size: number): ByteRange {
  assertByteRange(range);
  if (range.start >= size) throw new RangeNotSatisfiableError(range.start, size);
  return { start: range.start, end: Math.min(range.end, size - 1) };
}
