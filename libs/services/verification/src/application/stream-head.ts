import { Readable } from 'node:stream';

/** The first bytes of an upload, and a stream that still carries every byte of it. */
export interface StreamHead {
  head: Buffer;
  body: Readable;
}

/**
 * The first `bytes` of a stream (fewer when it ends sooner) without losing
 * them. Reads in paused mode, so that the stream can still be drained
 * (`resume()`) when it is refused later. While the source is still open its
 * bytes are put back into it; once it has ended (a file shorter than `bytes`)
 * nothing can be put back into it, so the bytes read are the whole file and
 * `body` is a new stream of them.
 */
export async function peekHead(source: Readable, bytes: number): Promise<StreamHead> {
  const chunks: Buffer[] = [];
  let have = 0;
  let ended = source.readableEnded;
  const onEnd = () => (ended = true);
  source.once('end', onEnd);
  try {
    while (have < bytes && !ended) {
      const chunk = source.read() as Buffer | null;
      if (chunk !== null) {
        chunks.push(chunk);
        have += chunk.length;
        continue;
      }
      await new Promise<void>((resolve, reject) => {
        const settle = (e?: Error) => {
          source.off('readable', settle);
          source.off('end', settle);
          source.off('error', settle);
          if (e) reject(e);
          else resolve();
        };
        source.once('readable', settle);
        source.once('end', settle);
        source.once('error', settle);
      });
    }
  } finally {
    source.off('end', onEnd);
  }
  const read = Buffer.concat(chunks);
  if (ended) return { head: read.subarray(0, bytes), body: Readable.from(read.length > 0 ? [read] : [], { objectMode: false }) };
  if (read.length > 0) source.unshift(read);
  return { head: read.subarray(0, bytes), body: source };
}
