import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { type ByteRange, contentRange, parseRange } from './byte-range';
import { contentDisposition } from './content-disposition';

/** What is known of a stored file before its bytes are read. */
export interface StoredFileMeta {
  size: number;
  contentType: string;
  filename: string;
  /** Hex sha256 of the bytes: the ETag. */
  sha256: string;
}

/** The request headers that make a file download partial or conditional, as the client sent them (RFC 9110 §13.1, §14.2). */
export interface FileConditions {
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
}

/**
 * How to answer a download of a file: the whole file (200), one range of it
 * (206), nothing because the client's copy is current (304), or nothing
 * because the range lies past the end (416).
 */
export type FileAnswer = { status: 200 } | { status: 206; range: ByteRange } | { status: 304 } | { status: 416 };

/** The strong entity tag of a file: its sha256, quoted. Two versions with the same bytes share it, and may. */
export function entityTagOf(sha256: string): string {
  return `"${sha256}"`;
}

/** The download conditions among a request's headers (a header sent twice counts by its first value). */
export function fileConditionsOf(headers: IncomingHttpHeaders | Readonly<Record<string, string | string[] | undefined>>): FileConditions {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return { range: first('range'), ifNoneMatch: first('if-none-match'), ifRange: first('if-range') };
}

/**
 * Decides a download of `file` from the client's conditions, in the order of
 * RFC 9110 §13.2.2:
 *
 * 1. `If-None-Match` naming the file's tag (weak comparison: `W/"…"` matches
 *    too), or `*`: 304, nothing is sent.
 * 2. `Range` without `If-Range`, or with `If-Range` naming exactly the file's
 *    strong tag: the range (206), 416 past the end; a malformed or multiple
 *    range is ignored (200).
 * 3. `If-Range` with anything else (another tag, a weak tag, or a date: no
 *    `Last-Modified` is ever sent, so no date can be validated): the whole
 *    file (200), never a part of content the client's copy does not hold.
 */
export function conditionalFileAnswer(file: Pick<StoredFileMeta, 'size' | 'sha256'>, conditions: FileConditions): FileAnswer {
  const etag = entityTagOf(file.sha256);
  if (conditions.ifNoneMatch !== undefined && entityTagListMatches(conditions.ifNoneMatch, etag)) return { status: 304 };
  if (conditions.range === undefined) return { status: 200 };
  if (conditions.ifRange !== undefined && conditions.ifRange.trim() !== etag) return { status: 200 };
  const range = parseRange(conditions.range, file.size);
  if (range === undefined) return { status: 200 };
  return range === 'unsatisfiable' ? { status: 416 } : { status: 206, range };
}

/**
 * Whether an `If-None-Match` list names the entity tag: `*`, or one of its
 * comma-separated members, compared weakly (`W/` dropped). A member that is
 * not a well-formed tag matches nothing.
 */
export function entityTagListMatches(header: string, etag: string): boolean {
  return header.split(',').some((member) => {
    const tag = member.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/**
 * Answers with a stored file, whole or the one byte range the client asked
 * for, honouring `If-None-Match` (304) and `If-Range` (the whole file when the
 * client's copy is of other bytes), as decided by `conditionalFileAnswer`; as
 * an attachment (RFC 6266), never cached and never sniffed. `open` reads the
 * bytes of the range (or all of them) only once the answer is decided, and
 * not at all for a 304 or a 416.
 */
export async function sendStoredFile(
  res: Response,
  file: StoredFileMeta,
  conditions: FileConditions,
  open: (range?: ByteRange) => Promise<{ stream: Readable; range: ByteRange; size: number }>,
): Promise<void> {
  const answer = conditionalFileAnswer(file, conditions);
  res.setHeader('ETag', entityTagOf(file.sha256));
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'no-store');
  if (answer.status === 304) {
    res.status(304).end();
    return;
  }
  if (answer.status === 416) {
    res.status(416).setHeader('Content-Range', contentRange('unsatisfiable', file.size));
    res.end();
    return;
  }
  const got = await open(answer.status === 206 ? answer.range : undefined);
  res.status(answer.status);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', contentDisposition(file.filename));
  res.setHeader('Content-Length', String(got.range.end - got.range.start + 1));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (answer.status === 206) res.setHeader('Content-Range', contentRange(got.range, got.size));
  // Once the bytes have started, a failure can only cut the answer short.
  await pipeline(got.stream, res).catch(() => res.destroy());
}
