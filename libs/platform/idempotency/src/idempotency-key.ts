import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { IDEMPOTENCY_KEY_PATTERN } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';

/** How long a completed key replays its response (the draft's suggested minimum is 24 h). */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/**
 * Reads an Idempotency-Key header. The IETF draft makes it a structured-field
 * string (`"8e03978e-…"`); a bare token is accepted too, since most clients send one.
 * Returns undefined when the header is absent.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) {
    throw new ProblemError('IDEMPOTENCY_KEY_INVALID', 'Send one Idempotency-Key header, not several.');
  }
  // HTTP strips the white space around a header value; IDEMPOTENCY_KEY_PATTERN is what the OpenAPI document publishes.
  const value = header.trim();
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ProblemError('IDEMPOTENCY_KEY_INVALID', 'The Idempotency-Key must be 1 to 255 visible ASCII characters without spaces or `"` (optionally in double quotes).');
  }
  return value.startsWith('"') ? value.slice(1, -1) : value;
}

/**
 * What makes two requests "the same" for a key: method, path and body. The
 * body is canonicalized (RFC 8785), so key order and whitespace don't count.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  const canonical = body === undefined ? '' : (canonicalize(body) ?? '');
  return `sha256:${createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonical}`).digest('hex')}`;
}
