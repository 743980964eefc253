import { randomBytes, timingSafeEqual } from 'node:crypto';
import { DELIVERY_CODE_LENGTH, type PortalLinkState } from '@dsar/contracts';
import { stepUpExpired } from './step-up-token';

/**
 * A link of the person's download page (docs/delivery.md) is a step-up challenge issued for the person. Its credential
 * (in the link) and its code (in a second email) are derived from a random salt stored on the challenge and the
 * service's secret, never stored themselves: the notifier, asking again for the same notification after a crash,
 * gets the same two values, and a copy of the database alone yields neither.
 */

/** Anything that computes HMAC-SHA256 with the service's secret (the internal auth key). */
export interface LinkSecretKey {
  mac(text: string): Buffer;
}

/** A new salt for a link: 16 random bytes, hex. */
export function newLinkSalt(): string {
  return randomBytes(16).toString('hex');
}

/** 10^8: the codes there are. The 48 bits they are taken from make the bias of the remainder below 2^-21. */
const CODE_SPACE = 10 ** DELIVERY_CODE_LENGTH;

/** The link's credential (43 base64url characters, 256 bits) and its code (8 digits), derived from its id and salt. */
export function linkSecrets(key: LinkSecretKey, linkId: string, salt: string): { credential: string; code: string } {
  const derive = (purpose: string) => key.mac(['dsar-delivery-link', 'v1', linkId, salt, purpose].join('\n'));
  const credential = derive('credential').toString('base64url');
  const code = String(derive('code').readUIntBE(0, 6) % CODE_SPACE).padStart(DELIVERY_CODE_LENGTH, '0');
  return { credential, code };
}

/** Whether `presented` is the link's code, in constant time (both are 8 ASCII digits once validated). */
export function codeMatches(expected: string, presented: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(presented, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A session of the page: 32 random bytes, base64url, shown once and stored as its SHA-256. */
export function newPortalSession(): string {
  return randomBytes(32).toString('base64url');
}

/** What a link's row says of it. */
export interface LinkFacts {
  expiresAt: Date;
  revokedAt: Date | null;
  completedAt: Date | null;
  failures: number;
  maxFailures: number;
}

/** Past its 24 hours, or replaced by a newer link (or a challenge of the API): 410 whatever else holds. */
export function linkGone(link: LinkFacts, now: Date): 'expired' | 'revoked' | undefined {
  if (link.revokedAt) return 'revoked';
  return stepUpExpired(link.expiresAt, now) ? 'expired' : undefined;
}

/** What the link can do now: used once its code was entered, else locked after too many wrong codes, else it asks for the code. */
export function linkState(link: LinkFacts): PortalLinkState {
  if (link.completedAt) return 'used';
  return link.failures >= link.maxFailures ? 'locked' : 'code_required';
}
