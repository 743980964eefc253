import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** Reads a stream whole (test sizes only). */
export async function readAllBytes(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** Deterministic, non-repeating-looking bytes: chunk boundaries show up as wrong bytes rather than passing by accident. */
export function testBytes(length: number, seed = 1): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    // xorshift32
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A source that hands `bytes` out in pieces of `pieceSize` (uneven on purpose, so drivers re-chunk). */
export function sourceOf(bytes: Buffer, pieceSize = 7919): Readable {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += pieceSize) pieces.push(Buffer.from(bytes.subarray(i, i + pieceSize)));
  return Readable.from(pieces, { objectMode: false });
}

/** A source that yields `bytes`, then fails with `error`. */
export function failingSource(bytes: Buffer, error: Error): Readable {
  return Readable.from(
    (async function* () {
      yield bytes;
      await new Promise((resolve) => setImmediate(resolve));
      throw error;
    })(),
    { objectMode: false },
  );
}

/** A source that yields `first`, then waits for `release()` before yielding `rest`: to look at a store mid-write. */
export function gatedSource(first: Buffer, rest: Buffer): { source: Readable; started: Promise<void>; release: () => void } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const source = Readable.from(
    (async function* () {
      yield first;
      started();
      await gate;
      yield rest;
    })(),
    { objectMode: false },
  );
  return { source, started: startedPromise, release };
}

/**
 * An endless source of `pieceSize`-byte pieces that counts what was read from it and whether it was destroyed:
 * to check that a consumer stops reading at a limit.
 */
export function endlessSource(pieceSize = 16 * 1024): { source: Readable; bytesRead: () => number } {
  let bytes = 0;
  const piece = testBytes(pieceSize, 7);
  const source = new Readable({
    read() {
      bytes += piece.length;
      this.push(Buffer.from(piece));
    },
  });
  return { source, bytesRead: () => bytes };
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Takes the first piece of `stream`, then destroys it (a reader that goes away halfway); resolves once it closed. */
export async function abandonAfterFirstPiece(stream: Readable): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    stream.once('data', () => {
      stream.destroy();
      resolve();
    });
    stream.once('error', reject);
  });
  if (!stream.closed) await new Promise((resolve) => stream.once('close', resolve));
}
