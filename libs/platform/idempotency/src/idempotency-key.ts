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

/**
 * The fingerprint of a request whose body is streamed (an upload): the fingerprint of its head (method, path and the
 * headers that describe the body, as the gateway computes it), the SHA-256 of the bytes that streamed through and their
 * number. The head comes first so that a retry whose head differs is refused before a byte of it is read.
 */
export function streamedBodyFingerprint(head: string, sha256Hex: string, bytes: number): string {
  return `${head};body=sha256:${sha256Hex};bytes=${bytes}`;
}

/** The head and the byte count of a fingerprint made by streamedBodyFingerprint; undefined for any other fingerprint. */
export function streamedFingerprintParts(fingerprint: string): { head: string; bytes: number } | undefined {
  const at = fingerprint.lastIndexOf(';body=sha256:');
  if (at < 0) return undefined;
  const bytes = Number(fingerprint.slice(fingerprint.lastIndexOf(';bytes=') + ';bytes='.length));
  return Number.isSafeInteger(bytes) ? { head: fingerprint.slice(0, at), bytes } : undefined;
}
