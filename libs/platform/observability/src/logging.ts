import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';

/**
 * Paths that may carry personal data or secrets. pino replaces them with
 * [REDACTED] before a line is written, wherever they appear in a log object.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-delivery-token"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.email',
  '*.name',
  '*.contact',
  '*.rawText',
  '*.phone',
  '*.address',
  '*.token',
  '*.password',
  '*.secret',
  '*.requestor',
  'body',
  'req.body',
];

export const REQUEST_ID_HEADER = 'x-request-id';

/** Reuses a caller's request id when it looks like one, otherwise makes one. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && /^[\w.:-]{1,128}$/.test(value) ? value : randomUUID();
}

export function loggerParams(service: string, level: string): Params {
  return {
    pinoHttp: {
      level,
      name: service,
      base: { service },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const id = requestIdOf(req);
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') || req.url === '/metrics' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      },
    },
  };
}
