import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A step-up token is valid for exactly this long after its challenge is issued. */
export const STEP_UP_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** Random bytes of a token: 256 bits, well above the 128 a guess must beat. */
export const STEP_UP_TOKEN_BYTES = 32;

/** A token as issued: 43 base64url characters (RFC 4648 §5, no padding). */
export const STEP_UP_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new token, shown once to the caller and never stored. */
export function newStepUpToken(): string {
  return randomBytes(STEP_UP_TOKEN_BYTES).toString('base64url');
}

/** What is stored of a token: the hex SHA-256 of its text. */
export function hashStepUpToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Whether `token` is the one whose hash is stored, in constant time: the
 * presented token is hashed and the two digests (always 32 bytes) are compared
 * with timingSafeEqual, so neither the token's length nor the position of the
 * first difference shows in the time taken.
 */
export function stepUpTokenMatches(storedHash: string, token: string): boolean {
  const stored = Buffer.from(storedHash, 'hex');
  const presented = createHash('sha256').update(token, 'utf8').digest();
  if (stored.length !== presented.length) return false;
  return timingSafeEqual(stored, presented);
}

/** When a challenge issued at `issuedAt` expires: exactly 24 hours later. */
export function stepUpExpiry(issuedAt: Date): Date {
  return new Date(issuedAt.getTime() + STEP_UP_TOKEN_TTL_MS);
}

/** A token is valid strictly before its expiry: at `expiresAt` itself it has expired. */
export function stepUpExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}
