import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TASK_TOKEN_PATTERN } from '@dsar/contracts';

/**
 * A task token: `dtt_` and 32 random bytes in base64url, issued anew by each claim. Only its SHA-256 is stored, so a
 * read of the table gives nobody a token; it is never logged nor put in an event.
 */
export function newTaskToken(): string {
  return `dtt_${randomBytes(32).toString('base64url')}`;
}

export function tokenSha256(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` is the one whose hash is stored, compared in constant time (a well-formed token only). */
export function tokenMatches(token: string | undefined, storedSha256: string | null): boolean {
  if (!token || !storedSha256 || !TASK_TOKEN_PATTERN.test(token)) return false;
  const given = Buffer.from(tokenSha256(token), 'hex');
  const stored = Buffer.from(storedSha256, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
