import { DIRECT_IO_ALIGNMENT, directPieces, directWindowSize, FileRangeStream, READS_IN_FLIGHT, type ReadableFile } from './file-range-stream';

/** A file in memory whose reads finish only when the test says so; what was asked of it. */
function controlledFile(bytes: Buffer) {
  const reads: { position: number; length: number; finish: () => void; fail: (e: Error) => void }[] = [];
  let closed = false;
  let closedWithReadsPending = false;
  const unsettled = new Set<number>();
  const handle: ReadableFile = {
    read: ((buffer: Buffer, offset: number, length: number, position: number) =>
      new Promise((resolve, reject) => {
        const id = reads.length;
        unsettled.add(id);
        reads.push({
          position,
          length,
          finish: () => {
            unsettled.delete(id);
            const n = position >= bytes.length ? 0 : bytes.copy(buffer, offset, position, Math.min(position + length, bytes.length));
            resolve({ bytesRead: n, buffer } as never);
          },
          fail: (e) => {
            unsettled.delete(id);
            reject(e);
          },
        });
      })) as ReadableFile['read'],
    close: async () => {
      closedWithReadsPending = unsettled.size > 0;
      closed = true;
    },
  };
  return { handle, reads, isClosed: () => closed, closedWithReadsPending: () => closedWithReadsPending };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const bytesOf = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

describe('FileRangeStream', () => {
  it(`keeps ${READS_IN_FLIGHT} reads in flight ahead of the consumer and gives the pieces in file order, whatever order the reads finish in`, async () => {
    const file = controlledFile(bytesOf(10));
    const stream = new FileRangeStream(file.handle, 1, 8, 3);
    const got: Buffer[] = [];
    stream.on('data', (piece: Buffer) => got.push(piece));
    const ended = new Promise((resolve) => stream.once('end', resolve));
    await settle();
    expect(file.reads.map((r) => [r.position, r.length])).toEqual([
      [1, 3],
      [4, 3],
    ]);
    file.reads[1].finish();
    await settle();
    expect(got).toEqual([]);
    file.reads[0].finish();
    await settle();
    expect(file.reads.map((r) => [r.position, r.length])).toEqual([
      [1, 3],
      [4, 3],
      [7, 2],
    ]);
    file.reads[2].finish();
    await ended;
    expect(Buffer.concat(got)).toEqual(bytesOf(10).subarray(1, 9));
    expect(got.map((p) => p.length)).toEqual([3, 3, 2]);
    await settle();
    expect(file.isClosed()).toBe(true);
  });

  it('issues no read beyond the pieces it may hold while the consumer does not read', async () => {
    const file = controlledFile(bytesOf(100));
    const stream = new FileRangeStream(file.handle, 0, 99, 10);
    stream.pause();
    stream.read(0); // starts the reading without taking anything
    for (let i = 0; i < 6; i++) {
      file.reads.filter((r, at) => at >= i - 1).forEach((r) => r.finish());
      await settle();
    }
    // One piece buffered (the high-water mark) and READS_IN_FLIGHT issued behind it.
    expect(file.reads.length).toBeLessThanOrEqual(1 + READS_IN_FLIGHT);
    stream.destroy();
  });

  it('ends where the file ends when it is shorter than the range', async () => {
    const file = controlledFile(bytesOf(5));
    const stream = new FileRangeStream(file.handle, 0, 9, 4);
    const got: Buffer[] = [];
    stream.on('data', (piece: Buffer) => got.push(piece));
    const ended = new Promise((resolve) => stream.once('end', resolve));
    for (let i = 0; i < 5 && !stream.readableEnded; i++) {
      file.reads.forEach((r) => r.finish());
      await settle();
    }
    await ended;
    expect(Buffer.concat(got)).toEqual(bytesOf(5));
  });

  it('fails with the error of a read, and closes the file once no read is in flight', async () => {
    const file = controlledFile(bytesOf(20));
    const stream = new FileRangeStream(file.handle, 0, 19, 5);
    const failed = new Promise<Error>((resolve) => stream.once('error', resolve));
    stream.resume();
    await settle();
    file.reads[0].fail(new Error('EIO'));
    await settle();
    expect(file.isClosed()).toBe(false);
    file.reads[1].finish();
    expect((await failed).message).toBe('EIO');
    await settle();
    expect({ closed: file.isClosed(), underPendingRead: file.closedWithReadsPending() }).toEqual({ closed: true, underPendingRead: false });
  });

  it('closes the file when destroyed halfway, after the reads in flight settle, and issues no more', async () => {
    const file = controlledFile(bytesOf(20));
    const stream = new FileRangeStream(file.handle, 0, 19, 5);
    stream.resume();
    await settle();
    const issued = file.reads.length;
    stream.destroy();
    await settle();
    expect(file.isClosed()).toBe(false);
    file.reads.forEach((r) => r.finish());
    await new Promise((resolve) => stream.once('close', resolve));
    expect({ closed: file.isClosed(), underPendingRead: file.closedWithReadsPending(), issued: file.reads.length }).toEqual({ closed: true, underPendingRead: false, issued });
  });

  it('gives nothing for an empty range and closes the file', async () => {
    const file = controlledFile(Buffer.alloc(0));
    const stream = new FileRangeStream(file.handle, 0, -1, 4);
    const got: Buffer[] = [];
    for await (const piece of stream) got.push(piece as Buffer);
    expect({ got, reads: file.reads.length }).toEqual({ got: [], reads: 0 });
    await settle();
    expect(file.isClosed()).toBe(true);
  });
});

/** A direct reader over `handle` with READS_IN_FLIGHT plain buffers (the fake file needs no aligned memory); what it gave back. */
function directReader(handle: ReadableFile, pieceSize: number) {
  const released: Buffer[][] = [];
  const buffers = Array.from({ length: READS_IN_FLIGHT }, () => Buffer.alloc(directWindowSize(pieceSize)));
  return { reader: directPieces(handle, buffers, (b) => released.push(b)), buffers, released };
}

describe('directPieces', () => {
  /** A file in memory that refuses, as O_DIRECT does, a read whose offset or length is not block-aligned. */
  function alignedOnlyFile(bytes: Buffer) {
    const reads: [number, number][] = [];
    const handle: ReadableFile = {
      read: (async (buffer: Buffer, offset: number, length: number, position: number) => {
        if (position % DIRECT_IO_ALIGNMENT !== 0 || length % DIRECT_IO_ALIGNMENT !== 0) throw Object.assign(new Error('EINVAL'), { code: 'EINVAL' });
        reads.push([position, length]);
        const n = position >= bytes.length ? 0 : bytes.copy(buffer, offset, position, Math.min(position + length, bytes.length));
        return { bytesRead: n, buffer };
      }) as ReadableFile['read'],
      close: async () => undefined,
    };
    return { handle, reads };
  }

  it('reads whole blocks around each piece and gives exactly the piece, the last one cut at the end of the file', async () => {
    const bytes = bytesOf(3 * DIRECT_IO_ALIGNMENT + 100);
    const file = alignedOnlyFile(bytes);
    const { reader } = directReader(file.handle, 5000);
    const read = (position: number, length: number) => reader.read(position, length);
    expect((await read(10, 5000)).equals(bytes.subarray(10, 5010))).toBe(true);
    expect((await read(DIRECT_IO_ALIGNMENT * 2 + 7, 5000)).equals(bytes.subarray(DIRECT_IO_ALIGNMENT * 2 + 7))).toBe(true);
    expect(await read(bytes.length + 10, 5000)).toHaveLength(0);
    expect(file.reads).toEqual([
      [0, 2 * DIRECT_IO_ALIGNMENT],
      [2 * DIRECT_IO_ALIGNMENT, 2 * DIRECT_IO_ALIGNMENT],
      [3 * DIRECT_IO_ALIGNMENT, 2 * DIRECT_IO_ALIGNMENT],
    ]);
  });

  it('gives each piece a buffer of its own: later reads into its block buffers leave earlier pieces as they were', async () => {
    const bytes = bytesOf(64 * 1024);
    const { reader } = directReader(alignedOnlyFile(bytes).handle, 4096);
    const pieces = [];
    for (let at = 0; at < bytes.length; at += 4096) pieces.push(await reader.read(at, 4096));
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
  });

  it(`refuses a read beyond the ${READS_IN_FLIGHT} it has buffers for`, async () => {
    const { reader } = directReader(alignedOnlyFile(bytesOf(64 * 1024)).handle, 4096);
    const reads = Array.from({ length: READS_IN_FLIGHT + 1 }, (_, i) => reader.read(i * 4096, 4096));
    expect((await Promise.allSettled(reads)).map((r) => r.status)).toEqual([...Array(READS_IN_FLIGHT).fill('fulfilled'), 'rejected']);
  });

  it('gives its buffers back once the stream is done, after the reads in flight', async () => {
    const bytes = bytesOf(64 * 1024);
    const { reader, buffers, released } = directReader(alignedOnlyFile(bytes).handle, 4096);
    const stream = new FileRangeStream(alignedOnlyFile(bytes).handle, 0, bytes.length - 1, 4096, reader);
    const got: Buffer[] = [];
    for await (const piece of stream) got.push(piece as Buffer);
    await settle();
    expect({ equal: Buffer.concat(got).equals(bytes), released }).toEqual({ equal: true, released: [buffers] });
  });
});
