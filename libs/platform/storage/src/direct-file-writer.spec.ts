import { DIRECT_IO_ALIGNMENT } from './file-range-stream';
import { DirectFileWriter, type WritableFile } from './direct-file-writer';
import { testBytes } from './testing/streams';

const BLOCK = DIRECT_IO_ALIGNMENT;

/** A file in memory that records its calls; each write finishes when `settleWrites` says so (or at once). */
function fakeFile(options: { manual?: boolean; fail?: (call: number) => Error | undefined; short?: boolean } = {}) {
  let content = Buffer.alloc(0);
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let writes = 0;
  const file: WritableFile = {
    write: (async (buffer: Buffer, offset: number, length: number, position: number) => {
      const call = writes++;
      calls.push(`write ${position} ${length}`);
      if (position % BLOCK !== 0 || length % BLOCK !== 0) throw new Error(`unaligned write at ${position} of ${length}`);
      // What the caller passes is copied when the write is issued, as the kernel reads it then at the latest.
      const bytes = Buffer.from(buffer.subarray(offset, offset + length));
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (options.manual) await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight--;
      const failure = options.fail?.(call);
      if (failure) throw failure;
      if (content.length < position + length) content = Buffer.concat([content, Buffer.alloc(position + length - content.length)]);
      bytes.copy(content, position);
      return { bytesWritten: options.short ? length - BLOCK : length, buffer };
    }) as WritableFile['write'],
    truncate: async (length?: number) => {
      calls.push(`truncate ${length}`);
      content = content.subarray(0, length);
    },
    sync: async () => {
      calls.push('sync');
    },
  };
  return {
    file,
    calls,
    content: () => content,
    maxInFlight: () => maxInFlight,
    pending: () => waiting.length,
    finishOne: () => waiting.shift()?.(),
  };
}

const buffers = (count: number, size = 4 * BLOCK) => Array.from({ length: count }, () => Buffer.alloc(size));

async function writeAll(writer: DirectFileWriter, bytes: Buffer, pieceSize: number): Promise<void> {
  for (let i = 0; i < bytes.length; i += pieceSize) await writer.write(bytes.subarray(i, i + pieceSize));
}

describe('DirectFileWriter', () => {
  it('writes whole buffers at aligned offsets, pads the last block, then cuts the file to its length and flushes it', async () => {
    const fake = fakeFile();
    const writer = new DirectFileWriter(fake.file, buffers(2));
    const bytes = testBytes(9 * 4 * BLOCK + 1234);
    await writeAll(writer, bytes, 7919);
    expect(writer.bytes).toBe(bytes.length);
    expect(await writer.finish()).toBe(bytes.length);
    expect(fake.content().equals(bytes)).toBe(true);
    expect(fake.calls.slice(-3)).toEqual([`write ${9 * 4 * BLOCK} ${BLOCK}`, `truncate ${bytes.length}`, 'sync']);
    expect(fake.calls.filter((c) => c.startsWith('write'))).toHaveLength(10);
  });

  it('neither pads nor cuts a file of whole buffers, and flushes an empty one', async () => {
    const fake = fakeFile();
    const writer = new DirectFileWriter(fake.file, buffers(2));
    const bytes = testBytes(3 * 4 * BLOCK);
    await writeAll(writer, bytes, 4 * BLOCK);
    await writer.finish();
    expect(fake.content().equals(bytes)).toBe(true);
    expect(fake.calls).toEqual([`write 0 ${4 * BLOCK}`, `write ${4 * BLOCK} ${4 * BLOCK}`, `write ${8 * BLOCK} ${4 * BLOCK}`, 'sync']);

    const empty = fakeFile();
    expect(await new DirectFileWriter(empty.file, buffers(2)).finish()).toBe(0);
    expect(empty.calls).toEqual(['sync']);
  });

  it('fills a buffer while the others are written, and waits when every buffer is on its way', async () => {
    const fake = fakeFile({ manual: true });
    const writer = new DirectFileWriter(fake.file, buffers(3));
    const bytes = testBytes(6 * 4 * BLOCK);
    let done = false;
    const writing = writeAll(writer, bytes, 4 * BLOCK).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    // All three buffers written, the fourth window waiting for one of them.
    expect(fake.pending()).toBe(3);
    expect(done).toBe(false);
    while (!done) {
      fake.finishOne();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writing;
    const finishing = writer.finish();
    while (fake.pending() > 0 || !fake.calls.includes('sync')) {
      fake.finishOne();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await finishing;
    expect(fake.maxInFlight()).toBe(3);
    expect(fake.content().equals(bytes)).toBe(true);
  });

  it('fails the next call after a failed write, and settles only once every write in flight is over', async () => {
    const fake = fakeFile({ manual: true, fail: (call) => (call === 0 ? new Error('ENOSPC: no space left on device') : undefined) });
    const writer = new DirectFileWriter(fake.file, buffers(3));
    const writing = writeAll(writer, testBytes(3 * 4 * BLOCK), 4 * BLOCK);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.pending()).toBe(3);
    fake.finishOne();
    await expect(writing).rejects.toThrow('ENOSPC');
    let settled = false;
    const settling = writer.settle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    fake.finishOne();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    fake.finishOne();
    await settling;
    await expect(writer.finish()).rejects.toThrow('ENOSPC');
    expect(fake.calls).not.toContain('sync');
  });

  it('fails on a short write rather than leaving a hole', async () => {
    const writer = new DirectFileWriter(fakeFile({ short: true }).file, buffers(2));
    await writer.write(testBytes(100));
    await expect(writer.finish()).rejects.toThrow(/short direct write/);
  });

  it('refuses buffers it could not write directly', () => {
    expect(() => new DirectFileWriter(fakeFile().file, buffers(1))).toThrow(RangeError);
    expect(() => new DirectFileWriter(fakeFile().file, [Buffer.alloc(BLOCK), Buffer.alloc(BLOCK + 1)])).toThrow(RangeError);
  });
});
