import { createHash, randomBytes } from 'node:crypto';
import { ChunkRefusedError, chunkThreadsRunning, type SealingJob, startOpening, startSealing, stopChunkThreads } from './chunk-crypto-threads';
import { ChunkSealer, fileKey, newDataKey, newFileHeader } from './envelope-format';
import { testBytes } from './testing/streams';

const CHUNK = 64 * 1024;

function sealerOf(): ChunkSealer {
  const { dataKey } = newDataKey();
  const header = newFileHeader(dataKey.id, CHUNK);
  return new ChunkSealer(fileKey(dataKey.key, header), header, 'tenant-a', 'requests/r1/artifact');
}

/** Seals `length` random bytes as a file's last chunk on `job`, and expects the file's digest to be theirs. */
async function sealsLastChunk(job: SealingJob, sealer: ChunkSealer, length: number): Promise<void> {
  const plain = randomBytes(length);
  await job.seal(Buffer.from(plain), length, sealer.nonce(0), sealer.aad(0, true));
  expect(await job.digest()).toBe(createHash('sha256').update(plain).digest('hex'));
}

/** A first chunk given to `job` to seal, not awaited yet. */
const sealingFirstChunk = (job: SealingJob, sealer: ChunkSealer) => job.seal(Buffer.from(randomBytes(CHUNK)), CHUNK, sealer.nonce(0), sealer.aad(0, false));

afterEach(async () => {
  await stopChunkThreads();
});

describe('chunk threads', () => {
  it('seal every chunk exactly as the event loop does, and hash the whole file', async () => {
    const sealer = sealerOf();
    const job = startSealing(sealer.key);
    const bytes = testBytes(5 * CHUNK + 777);
    const replies: Promise<[Buffer, Buffer]>[] = [];
    for (let index = 0; index * CHUNK < bytes.length; index++) {
      const piece = bytes.subarray(index * CHUNK, (index + 1) * CHUNK);
      const plain = job.plainBuffer(CHUNK);
      piece.copy(plain);
      const final = (index + 1) * CHUNK >= bytes.length;
      replies.push(job.seal(plain, piece.length, sealer.nonce(index), sealer.aad(index, final)));
      // Moved to the thread: the caller keeps no view of the bytes.
      expect(plain.length).toBe(0);
    }
    const sealed = await Promise.all(replies);
    sealed.forEach(([body, tag], index) => {
      const piece = bytes.subarray(index * CHUNK, (index + 1) * CHUNK);
      const [expectedBody, expectedTag] = sealer.seal(index, index === sealed.length - 1, piece);
      expect(body.equals(expectedBody)).toBe(true);
      expect(tag.equals(expectedTag)).toBe(true);
      expect(sealer.open(index, index === sealed.length - 1, Buffer.concat([body, tag]), 'x').equals(piece)).toBe(true);
    });
    expect(await job.digest()).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('gives the plaintext buffers back for the next chunks, and copies a buffer that is part of a larger one', async () => {
    const sealer = sealerOf();
    const job = startSealing(sealer.key);
    const first = job.plainBuffer(CHUNK);
    await job.seal(first, CHUNK, sealer.nonce(0), sealer.aad(0, false));
    expect(first.buffer.byteLength).toBe(0);
    // The one given back, whole again.
    expect(job.plainBuffer(CHUNK)).toHaveLength(CHUNK);
    const shared = Buffer.alloc(3 * CHUNK, 1);
    const view = shared.subarray(CHUNK, 2 * CHUNK);
    const [body] = await job.seal(view, 100, sealer.nonce(1), sealer.aad(1, true));
    expect(body).toHaveLength(100);
    expect(shared.length).toBe(3 * CHUNK);
    // A new buffer is zeros; the view's first 100 bytes are ones.
    expect(await job.digest()).toBe(createHash('sha256').update(Buffer.alloc(CHUNK, 0)).update(Buffer.alloc(100, 1)).digest('hex'));
  });

  it('keeps two threads at most, the files spread over them', async () => {
    const jobs = Array.from({ length: 5 }, () => startSealing(sealerOf().key));
    expect(chunkThreadsRunning()).toBe(2);
    for (const job of jobs) job.abort();
  });

  it('fails what an aborted file still awaited, and goes on with the others of its thread', async () => {
    const sealer = sealerOf();
    const [kept, given] = [startSealing(sealer.key), startSealing(sealer.key)];
    const awaited = sealingFirstChunk(given, sealer);
    given.abort();
    await expect(awaited).rejects.toThrow('given up');
    await expect(given.digest()).rejects.toThrow('done with this file');
    await sealsLastChunk(kept, sealer, 100);
  });

  it('fails the files of a thread that died, and seals the next file on a new thread', async () => {
    const sealer = sealerOf();
    const job = startSealing(sealer.key);
    const awaited = sealingFirstChunk(job, sealer);
    await stopChunkThreads();
    await expect(awaited).rejects.toThrow(/exited/);
    expect(chunkThreadsRunning()).toBe(0);
    await sealsLastChunk(startSealing(sealer.key), sealer, 10);
  });

  it('open chunks as the event loop does, moving a chunk that is all of its memory, and refuse an altered one', async () => {
    const sealer = sealerOf();
    const job = startOpening(sealer.key);
    const plain = testBytes(CHUNK);
    const sealed = Buffer.concat(sealer.seal(3, false, plain));
    const whole = Buffer.from(new ArrayBuffer(sealed.length));
    sealed.copy(whole);
    expect((await job.open(whole, whole.length, sealer.nonce(3), sealer.aad(3, false))).equals(plain)).toBe(true);
    expect(whole).toHaveLength(0);
    // A view into a larger buffer is copied, and left as it was.
    const larger = Buffer.concat([sealed, Buffer.alloc(10)]);
    expect((await job.open(larger.subarray(0, sealed.length), sealed.length, sealer.nonce(3), sealer.aad(3, false))).equals(plain)).toBe(true);
    expect(larger).toHaveLength(sealed.length + 10);
    // Another index, the final flag, or a flipped bit: refused, and the file goes on.
    await expect(job.open(Buffer.from(sealed), sealed.length, sealer.nonce(4), sealer.aad(4, false))).rejects.toBeInstanceOf(ChunkRefusedError);
    await expect(job.open(Buffer.from(sealed), sealed.length, sealer.nonce(3), sealer.aad(3, true))).rejects.toBeInstanceOf(ChunkRefusedError);
    const flipped = Buffer.from(sealed);
    flipped[100] ^= 1;
    await expect(job.open(flipped, flipped.length, sealer.nonce(3), sealer.aad(3, false))).rejects.toBeInstanceOf(ChunkRefusedError);
    expect((await job.open(Buffer.from(sealed), sealed.length, sealer.nonce(3), sealer.aad(3, false))).equals(plain)).toBe(true);
    job.abort();
    await expect(job.open(Buffer.from(sealed), sealed.length, sealer.nonce(3), sealer.aad(3, false))).rejects.toThrow('done with this file');
  });
});
