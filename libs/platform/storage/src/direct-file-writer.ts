import type { FileHandle } from 'node:fs/promises';
import { DIRECT_IO_ALIGNMENT } from './file-range-stream';

/**
 * Bytes per direct write: the size of each aligned buffer a direct write fills. A file of no more than this goes
 * through the page cache (it is known to be small before any direct write would start).
 */
export const DIRECT_WRITE_WINDOW = 4 * 1024 * 1024;

/** Aligned buffers per file written directly: one being filled while the other is on its way to the disk. */
export const DIRECT_WRITE_BUFFERS = 2;

/** The part of a `FileHandle` the writer uses. */
export type WritableFile = Pick<FileHandle, 'write' | 'truncate' | 'sync'>;

/**
 * Writes a file opened with O_DIRECT, which bypasses the page cache: the bytes given are copied into aligned buffers
 * (`buffers`, each a multiple of DIRECT_IO_ALIGNMENT, from the process's pool) and each full buffer is written at an
 * aligned offset while the next fills. The last buffer is padded with zeros to a whole block, and `finish` cuts the
 * file back to its length and flushes it (fsync: the device's cache and the file's size), so a file is durable when
 * `finish` resolves, as a buffered write followed by fsync is.
 *
 * On the benchmark machine the kernel spent 2–3.7 s of CPU per GiB copying a buffered write into the page cache and
 * writing it back, and about 0.05 s writing it directly (docs/performance.md): an artifact's CPU goes to encrypting it.
 *
 * The buffers stay in use while a write is in flight: `settle` waits for every one, and only then may they be given
 * back (`finish` settles too, also when it fails).
 */
export class DirectFileWriter {
  private readonly free: Buffer[];
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;
  private current: Buffer;
  private filled = 0;
  private position = 0;
  private length = 0;

  constructor(
    private readonly handle: WritableFile,
    buffers: Buffer[],
  ) {
    if (buffers.length < 2) throw new RangeError('a direct writer needs at least two buffers');
    for (const buffer of buffers) {
      if (buffer.length === 0 || buffer.length % DIRECT_IO_ALIGNMENT !== 0) throw new RangeError(`direct write buffers are whole multiples of ${DIRECT_IO_ALIGNMENT} bytes`);
    }
    this.free = [...buffers];
    this.current = this.free.pop() as Buffer;
  }

  /** Bytes given so far. */
  get bytes(): number {
    return this.length;
  }

  /** Copies `piece` in; resolves once it may be reused (a write of a full buffer may still be in flight). */
  async write(piece: Uint8Array): Promise<void> {
    // After a failed write the file is unusable: every later call fails with that write's error.
    if (this.failure !== undefined) throw this.failure;
    for (let offset = 0; offset < piece.length;) {
      const taken = Math.min(this.current.length - this.filled, piece.length - offset);
      this.current.set(piece.subarray(offset, offset + taken), this.filled);
      this.filled += taken;
      offset += taken;
      this.length += taken;
      if (this.filled === this.current.length) await this.issue(this.current.length);
    }
  }

  /** Writes what is left (padded to a block), waits for every write, cuts the file to its length and flushes it. */
  async finish(): Promise<number> {
    try {
      if (this.failure !== undefined) throw this.failure;
      if (this.filled > 0) {
        const padded = Math.ceil(this.filled / DIRECT_IO_ALIGNMENT) * DIRECT_IO_ALIGNMENT;
        this.current.fill(0, this.filled, padded);
        await this.issue(padded);
      }
      await this.settle();
      if (this.failure !== undefined) throw this.failure;
      if (this.position !== this.length) await this.handle.truncate(this.length);
      await this.handle.sync();
      return this.length;
    } finally {
      await this.settle();
    }
  }

  /** Resolves once no write is in flight, whatever their outcome. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Starts the write of the current buffer's first `length` bytes and waits for a buffer to fill next. */
  private async issue(length: number): Promise<void> {
    const buffer = this.current;
    const position = this.position;
    this.position += length;
    const write = this.handle.write(buffer, 0, length, position).then(
      ({ bytesWritten }) => {
        if (bytesWritten !== length) this.failure ??= new Error(`short direct write: ${bytesWritten} of ${length} bytes at ${position}`);
      },
      (e: unknown) => {
        this.failure ??= e;
      },
    );
    const tracked: Promise<void> = write.finally(() => {
      this.inFlight.delete(tracked);
      this.free.push(buffer);
    });
    this.inFlight.add(tracked);
    while (this.free.length === 0) await Promise.race(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
    this.current = this.free.pop() as Buffer;
    this.filled = 0;
  }
}
