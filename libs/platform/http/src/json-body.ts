import type { NextFunction, Request, Response } from 'express';
import { text } from 'express';

const JSON_TYPES = ['application/json', 'application/*+json'];

interface ParserError extends Error {
  type: string;
  status: number;
}

function parseFailure(message: string): ParserError {
  return Object.assign(new Error(message), { type: 'entity.parse.failed', status: 400 });
}

/**
 * A strict JSON body parser: a body sent as JSON must be one JSON value.
 * Unlike the stock parser, an empty body with a JSON content type is an
 * error (REQUEST_BODY_INVALID_JSON), not an empty object, so a truncated
 * request can never pass as "no fields".
 */
export function strictJsonBody(limit: string) {
  const readText = text({ type: JSON_TYPES, limit, defaultCharset: 'utf-8' });
  return (req: Request, res: Response, next: NextFunction) => {
    readText(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (typeof req.body !== 'string') return next(); // not a JSON content type: raw routes read the stream
      const raw = req.body;
      if (raw.trim() === '') {
        if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE') {
          req.body = undefined;
          return next();
        }
        return next(parseFailure('empty JSON body'));
      }
      try {
        req.body = JSON.parse(raw);
        (req as Request & { rawBody?: string }).rawBody = raw;
        next();
      } catch (e) {
        next(parseFailure((e as Error).message));
      }
    });
  };
}
