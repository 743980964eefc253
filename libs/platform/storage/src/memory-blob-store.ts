import { Readable } from 'node:stream';
import { assertBlobKey, assertBlobPrefix } from './blob-key';
import { assertByteRange, type BlobStat, type BlobStore, type ByteRange, clampRange } from './blob-store';
import { BlobNotFoundError } from './errors';

/**
 * Blobs in process memory: for tests and for `memory://` data directories,
 * which keep nothing on disk. Every object is held whole, so it is no place
 * for large files.
 */
export class MemoryBlobStore implements BlobStore {
  private readonly objects = new Map<string, Buffer>();

  async write(key: string, source: Readable): Promise<void> {
    assertBlobKey(key);
    this.objects.set(key, await collect(source));
  }

  async writeIfAbsent(key: string, source: Readable): Promise<boolean> {
    assertBlobKey(key);
    const bytes = await collect(source);
    // Checked and set in one turn of the event loop: atomic among concurrent writers.
    if (this.objects.has(key)) return false;
    this.objects.set(key, bytes);
    return true;
  }

  async replaceIfUnchanged(key: string, expected: Buffer, replacement: Buffer): Promise<boolean> {
    assertBlobKey(key);
    // Compared and set in one turn of the event loop, like writeIfAbsent.
    if (!this.objects.get(key)?.equals(expected)) return false;
    this.objects.set(key, Buffer.from(replacement));
    return true;
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertBlobKey(key);
    if (range) assertByteRange(range);
    const bytes = this.objects.get(key);
    if (!bytes) throw new BlobNotFoundError(key);
    const bounds = range ? clampRange(range, bytes.length) : { start: 0, end: bytes.length - 1 };
    // A copy: a reader that changes its buffers must not change the stored object.
    return Readable.from(bytes.length === 0 ? [] : [Buffer.from(bytes.subarray(bounds.start, bounds.end + 1))], { objectMode: false });
  }

  async stat(key: string): Promise<BlobStat | undefined> {
    assertBlobKey(key);
    const bytes = this.objects.get(key);
    return bytes ? { size: bytes.length } : undefined;
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    this.objects.delete(key);
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertBlobPrefix(prefix);
    for (const key of [...this.objects.keys()]) if (key.startsWith(prefix)) this.objects.delete(key);
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix, { allowEmpty: true });
    for (const key of [...this.objects.keys()]) if (key.startsWith(prefix)) yield key;
  }
}

async function collect(source: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  // for await destroys the source when it fails or when the loop is left early.
  for await (const part of source) parts.push(Buffer.isBuffer(part) ? Buffer.from(part) : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}
