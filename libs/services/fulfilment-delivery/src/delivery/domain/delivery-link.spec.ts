import { createHmac } from 'node:crypto';
import { codeMatches, linkGone, linkSecrets, linkState, newLinkSalt, newPortalSession } from './delivery-link';

const key = { mac: (text: string) => createHmac('sha256', 'a-secret-of-at-least-thirty-two-bytes!!').update(text).digest() };
const other = { mac: (text: string) => createHmac('sha256', 'another-secret-of-thirty-two-bytes-or-more').update(text).digest() };
const LINK = '0b6f7f8e-3c1a-4c55-9d3e-5f1e0e8b9a21';

describe('delivery link secrets', () => {
  it('derives the same credential and code from the same link and salt, and others from another salt, link or key', () => {
    const salt = newLinkSalt();
    const first = linkSecrets(key, LINK, salt);
    expect(linkSecrets(key, LINK, salt)).toEqual(first);
    expect(first.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.code).toMatch(/^[0-9]{8}$/);
    expect(linkSecrets(key, LINK, newLinkSalt()).credential).not.toBe(first.credential);
    expect(linkSecrets(key, '5c3e7a10-9f1b-4d1e-8a4b-2a7f3c9d0e11', salt).credential).not.toBe(first.credential);
    expect(linkSecrets(other, LINK, salt).credential).not.toBe(first.credential);
  });

  it('spreads codes over all 8 digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, () => linkSecrets(key, LINK, newLinkSalt()).code);
    expect(new Set(codes).size).toBeGreaterThan(1990);
    const firstDigits = new Set(codes.map((c) => c[0]));
    expect(firstDigits.size).toBe(10);
  });

  it('compares codes exactly', () => {
    expect(codeMatches('01234567', '01234567')).toBe(true);
    expect(codeMatches('01234567', '01234568')).toBe(false);
    expect(codeMatches('01234567', '1234567')).toBe(false);
  });

  it('makes a new session each time', () => {
    const a = newPortalSession();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newPortalSession()).not.toBe(a);
  });
});

describe('delivery link state', () => {
  const now = new Date('2026-12-02T12:00:00Z');
  const open = { expiresAt: new Date('2026-12-03T12:00:00Z'), revokedAt: null, completedAt: null, failures: 0, maxFailures: 5 };

  it('is gone when expired (at its expiry itself) or replaced', () => {
    expect(linkGone(open, now)).toBeUndefined();
    expect(linkGone({ ...open, expiresAt: now }, now)).toBe('expired');
    expect(linkGone({ ...open, revokedAt: now }, now)).toBe('revoked');
  });

  it('asks for its code, is locked at the limit, and used once completed', () => {
    expect(linkState(open)).toBe('code_required');
    expect(linkState({ ...open, failures: 4 })).toBe('code_required');
    expect(linkState({ ...open, failures: 5 })).toBe('locked');
    expect(linkState({ ...open, completedAt: now })).toBe('used');
  });
});
