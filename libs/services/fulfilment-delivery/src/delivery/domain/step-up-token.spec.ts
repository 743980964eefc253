import { createHash } from 'node:crypto';
import { hashStepUpToken, newStepUpToken, STEP_UP_TOKEN_PATTERN, STEP_UP_TOKEN_TTL_MS, stepUpExpired, stepUpExpiry, stepUpTokenMatches } from './step-up-token';

describe('step-up tokens', () => {
  it('are 32 random bytes in base64url: 43 characters, never the same twice', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newStepUpToken()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) {
      expect(token).toMatch(STEP_UP_TOKEN_PATTERN);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as the hex SHA-256 of their text, which is not the token', () => {
    const token = newStepUpToken();
    const hash = hashStepUpToken(token);
    expect(hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(token);
  });

  it('match only the token whose hash is stored, whatever the length of what is presented', () => {
    const token = newStepUpToken();
    const hash = hashStepUpToken(token);
    expect(stepUpTokenMatches(hash, token)).toBe(true);
    expect(stepUpTokenMatches(hash, `${token} `)).toBe(false);
    expect(stepUpTokenMatches(hash, token.slice(0, -1))).toBe(false);
    expect(stepUpTokenMatches(hash, token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase())).toBe(false);
    expect(stepUpTokenMatches(hash, '')).toBe(false);
    expect(stepUpTokenMatches(hash, 'x'.repeat(10_000))).toBe(false);
    expect(stepUpTokenMatches(hash, newStepUpToken())).toBe(false);
    // A damaged stored hash matches nothing rather than throwing.
    expect(stepUpTokenMatches('abc', token)).toBe(false);
  });

  it('expire exactly 24 hours after issuance: valid a millisecond before, expired at the instant and after', () => {
    const issued = new Date('2026-06-01T09:00:00.000Z');
    const expiresAt = stepUpExpiry(issued);
    expect(expiresAt.toISOString()).toBe('2026-06-02T09:00:00.000Z');
    expect(expiresAt.getTime() - issued.getTime()).toBe(STEP_UP_TOKEN_TTL_MS);
    expect(stepUpExpired(expiresAt, new Date('2026-06-02T08:59:59.999Z'))).toBe(false);
    expect(stepUpExpired(expiresAt, new Date('2026-06-02T09:00:00.000Z'))).toBe(true);
    expect(stepUpExpired(expiresAt, new Date('2026-06-02T09:00:00.001Z'))).toBe(true);
  });
});
