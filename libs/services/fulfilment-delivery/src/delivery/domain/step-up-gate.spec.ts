import { type ChallengeState, completionOutcome, downloadOutcome, isLocked, outcomeAfterFailure } from './step-up-gate';
import { hashStepUpToken, newStepUpToken, stepUpExpiry } from './step-up-token';

const issuedAt = new Date('2026-06-01T09:00:00.000Z');
const token = newStepUpToken();
const before = new Date('2026-06-02T08:59:59.999Z');
const after = new Date('2026-06-02T09:00:00.001Z');

function challenge(overrides: Partial<ChallengeState> = {}): ChallengeState {
  return { tokenHash: hashStepUpToken(token), expiresAt: stepUpExpiry(issuedAt), maxFailures: 5, failures: 0, completedAt: null, revokedAt: null, ...overrides };
}

describe('step-up completion', () => {
  it('completes with the right token before the expiry, and a repeat is already_completed', () => {
    expect(completionOutcome(challenge(), token, before)).toBe('ok');
    expect(completionOutcome(challenge({ completedAt: issuedAt }), token, before)).toBe('already_completed');
  });

  it('a wrong or foreign token is wrong_token, also when no challenge was issued', () => {
    expect(completionOutcome(challenge(), newStepUpToken(), before)).toBe('wrong_token');
    expect(completionOutcome(challenge(), '', before)).toBe('wrong_token');
    expect(completionOutcome(null, token, before)).toBe('wrong_token');
  });

  it('the right token 24 h + 1 ms after issuance is expired', () => {
    expect(completionOutcome(challenge(), token, after)).toBe('expired');
  });

  it('locks at the limit: then even the right token is refused', () => {
    expect(isLocked(challenge({ failures: 4 }))).toBe(false);
    expect(isLocked(challenge({ failures: 5 }))).toBe(true);
    expect(completionOutcome(challenge({ failures: 4 }), token, before)).toBe('ok');
    expect(completionOutcome(challenge({ failures: 5 }), token, before)).toBe('locked');
    expect(completionOutcome(challenge({ failures: 5 }), newStepUpToken(), before)).toBe('locked');
    expect(completionOutcome(challenge({ failures: 1, maxFailures: 1 }), token, before)).toBe('locked');
  });

  it('the wrong token that reaches the limit is answered as locked, the ones before as wrong', () => {
    expect([1, 2, 3, 4, 5].map((n) => outcomeAfterFailure(n, 5))).toEqual(['wrong_token', 'wrong_token', 'wrong_token', 'wrong_token', 'locked']);
    expect(outcomeAfterFailure(1, 1)).toBe('locked');
  });
});

describe('the download gate', () => {
  const completed = challenge({ completedAt: issuedAt });

  it('opens only for a completed, unexpired, unlocked, current token', () => {
    expect(downloadOutcome(token, completed, before)).toBe('ok');
  });

  it('refuses everything else, saying why', () => {
    expect(downloadOutcome(undefined, completed, before)).toBe('missing_token');
    expect(downloadOutcome('  ', completed, before)).toBe('missing_token');
    expect(downloadOutcome(token, null, before)).toBe('wrong_token');
    expect(downloadOutcome(newStepUpToken(), completed, before)).toBe('wrong_token');
    expect(downloadOutcome(token, challenge(), before)).toBe('not_completed');
    expect(downloadOutcome(token, completed, after)).toBe('expired');
    expect(downloadOutcome(token, challenge({ completedAt: issuedAt, revokedAt: issuedAt }), before)).toBe('revoked');
    expect(downloadOutcome(token, challenge({ completedAt: issuedAt, failures: 5 }), before)).toBe('locked');
  });
});
