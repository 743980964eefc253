import { promisify } from 'node:util';
import { gunzip, inflate, type InputType, type ZlibOptions } from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';
import { ProblemError } from '@dsar/platform/errors';

const JSON_TYPE = /^application\/(?:json|[\w.+-]+\+json)$/i;

/** The content codings a body may arrive in (RFC 9110 §8.4.1); `x-gzip` is gzip's old name. */
const DECODERS: Record<string, (buffer: InputType, options: ZlibOptions) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
};

/** The Accept-Encoding of a 415 for an unsupported coding: what would have been taken. */
export const ACCEPTED_CONTENT_CODINGS = 'gzip, deflate';

interface ParserError extends Error {
  type: string;
  status: number;
}

/**
 * How deeply a JSON body may nest objects and arrays (the top-level value is
 * level 1). The deepest body of the API is a few levels deep; a limit keeps
 * recursive code (canonicalization, validation, logging) far from the stack's
 * end whatever a client sends.
 */
export const MAX_JSON_DEPTH = 32;

/** Whether a parsed JSON value nests objects or arrays deeper than `max` levels; iterative, so any depth is safe to ask about. */
export function jsonDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [v, depth] = next;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

/** The 400 for a body nested too deeply: valid JSON, but not a body any route takes. */
export function tooDeepProblem(max = MAX_JSON_DEPTH): ProblemError {
  return new ProblemError('REQUEST_VALIDATION_FAILED', `The JSON body is nested deeper than ${max} levels.`, [
    { field: '(body)', message: `is JSON nested deeper than ${max} levels; no request body of this API nests that deep` },
  ]);
}

function parseFailure(message: string): ParserError {
  return Object.assign(new Error(message), { type: 'entity.parse.failed', status: 400 });
}

/** A size as configuration writes it (`512kb`, `1mb`, `100b`, or a number of bytes) in bytes. */
export function byteLimit(limit: string | number): number {
  if (typeof limit === 'number') return limit;
  const m = /^\s*(\d+)\s*(b|kb|mb|gb)?\s*$/i.exec(limit);
  if (!m) throw new Error(`not a size: ${limit}`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b'];
  return Number(m[1]) * unit;
}

function tooLarge(): ProblemError {
  return new ProblemError('PAYLOAD_TOO_LARGE', 'The body exceeds the size limit.');
}

/**
 * The one content coding of a request, or undefined for none (`identity`).
 * Anything but one of gzip, x-gzip and deflate is a 415
 * CONTENT_ENCODING_UNSUPPORTED naming the codings that are taken; so is a list
 * of codings (`gzip, gzip`): a body is decoded at most once.
 */
export function contentCodingOf(header: string | string[] | undefined): string | undefined {
  const codings = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return undefined;
  const unsupported = (detail: string) => new ProblemError('CONTENT_ENCODING_UNSUPPORTED', detail, undefined, {}, { 'Accept-Encoding': ACCEPTED_CONTENT_CODINGS });
  if (codings.length > 1) throw unsupported('The body may be encoded once, with gzip or deflate; it names several codings.');
  const coding = codings[0];
  if (!DECODERS[coding]) {
    const shown = /^[\w.+-]{1,32}$/.test(coding) ? coding : 'the one named';
    throw unsupported(`The Content-Encoding ${shown} is not supported; send the body as gzip, deflate or unencoded.`);
  }
  return coding;
}

/** Whether the request has a body at all (RFC 9112 §6.3: a Transfer-Encoding or a Content-Length). */
export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && !Number.isNaN(Number(req.headers['content-length'])));
}

/** Reads the bytes of the request as they arrive, up to `limit`; drains the rest and fails with 413 past it. */
function readRaw(req: Request, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      if (over) reject(tooLarge());
      else resolve(Buffer.concat(chunks, size));
    };
    const onError = (e: Error) => {
      cleanup();
      reject(Object.assign(new ProblemError('REQUEST_BODY_INVALID_JSON', 'The body could not be read to its end.'), { cause: e }));
    };
    const onAborted = () => onError(new Error('request aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * The request body as bytes, decoded from its Content-Encoding. The coding is
 * checked before a byte is read (415); the size limit applies to the bytes on
 * the wire and again to the decoded bytes, so a small body that inflates
 * beyond it (a zip bomb) is a 413 and is never inflated further than the
 * limit. A corrupt or truncated encoding is a 400 REQUEST_BODY_ENCODING_INVALID.
 */
export async function readDecodedBody(req: Request, limit: string | number): Promise<Buffer> {
  const bytes = byteLimit(limit);
  const coding = contentCodingOf(req.headers['content-encoding']);
  const raw = await readRaw(req, bytes);
  if (!coding) return raw;
  try {
    return await DECODERS[coding](raw, { maxOutputLength: Math.max(bytes, 1) });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw tooLarge();
    throw new ProblemError('REQUEST_BODY_ENCODING_INVALID', `The body could not be decoded as ${coding}: it is corrupt or truncated.`);
  }
}

/** The charset parameter of a media type, lower-cased; undefined without one. */
function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return m?.[1].toLowerCase();
}

function isJsonType(contentType: string | undefined): contentType is string {
  return contentType !== undefined && JSON_TYPE.test(contentType.split(';')[0].trim());
}

/**
 * A strict JSON body parser: a body sent as JSON must be one JSON value.
 * Unlike the stock parser, an empty body with a JSON content type is an
 * error (REQUEST_BODY_INVALID_JSON), not an empty object, so a truncated
 * request can never pass as "no fields". The body may be gzip or deflate
 * encoded (readDecodedBody); the size limit applies to the decoded body.
 */
export function strictJsonBody(limit: string) {
  const bytes = byteLimit(limit);
  return (req: Request, _res: Response, next: NextFunction) => {
    const type = req.headers['content-type'];
    // Not a JSON content type, or no body at all: raw routes read the stream themselves.
    if (!isJsonType(type) || !hasBody(req) || (req as Request & { _body?: boolean })._body) return next();
    const charset = charsetOf(type);
    if (charset !== undefined && !['utf-8', 'utf8', 'us-ascii'].includes(charset)) {
      return next(new ProblemError('UNSUPPORTED_MEDIA_TYPE', 'A JSON body must be UTF-8.'));
    }
    readDecodedBody(req, bytes).then((body) => {
      (req as Request & { _body?: boolean })._body = true;
      const raw = body.toString('utf8').replace(/^\uFEFF/, '');
      if (raw.trim() === '') {
        if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE') {
          req.body = undefined;
          return next();
        }
        return next(parseFailure('empty JSON body'));
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch (e) {
        return next(parseFailure((e as Error).message));
      }
      if (jsonDeeperThan(parsed, MAX_JSON_DEPTH)) return next(tooDeepProblem());
      req.body = parsed;
      (req as Request & { rawBody?: string }).rawBody = raw;
      next();
    }, next);
  };
}
