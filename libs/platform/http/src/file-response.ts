import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { type ByteRange, parseRange } from './byte-range';
import { contentDisposition } from './content-disposition';

/** What is known of a stored file before its bytes are read. */
export interface StoredFileMeta {
  size: number;
  contentType: string;
  filename: string;
  /** Hex sha256 of the bytes: the ETag. */
  sha256: string;
}

/**
 * Answers with a stored file, whole or the one byte range the client asked for
 * (RFC 9110: 206 with Content-Range, 416 when it starts past the end), as an
 * attachment (RFC 6266), never cached and never sniffed. `open` reads the bytes
 * of the range (or all of them) only once the answer is decided.
 */
export async function sendStoredFile(
  res: Response,
  file: StoredFileMeta,
  rangeHeader: string | undefined,
  open: (range?: ByteRange) => Promise<{ stream: Readable; range: ByteRange; size: number }>,
): Promise<void> {
  const range = rangeHeader !== undefined ? parseRange(rangeHeader, file.size) : undefined;
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${file.size}`);
    res.end();
    return;
  }
  const got = await open(range ?? undefined);
  res.status(range ? 206 : 200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', contentDisposition(file.filename));
  res.setHeader('Content-Length', String(got.range.end - got.range.start + 1));
  res.setHeader('ETag', `"${file.sha256}"`);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (range) res.setHeader('Content-Range', `bytes ${got.range.start}-${got.range.end}/${got.size}`);
  // Once the bytes have started, a failure can only cut the answer short.
  await pipeline(got.stream, res).catch(() => res.destroy());
}
