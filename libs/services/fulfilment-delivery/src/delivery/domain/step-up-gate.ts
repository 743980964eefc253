import { stepUpExpired, stepUpTokenMatches } from './step-up-token';

/** What the gate knows of a step-up challenge. */
export interface ChallengeState {
  tokenHash: string;
  expiresAt: Date;
  /** Wrong tokens the challenge takes before it is locked (pinned when it was issued). */
  maxFailures: number;
  failures: number;
  completedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * The outcome of a try to complete the request's current challenge:
 * `ok` completes it; `already_completed` is a repeat with the right token
 * (answered like `ok`, recorded once); `wrong_token` counts a failure;
 * `expired` (the right token, too late) and `locked` count none.
 */
export type CompletionOutcome = 'ok' | 'already_completed' | 'wrong_token' | 'expired' | 'locked';

/**
 * The outcome of a download's token check: `ok` opens the download; the
 * others refuse it (`locked` with 403, the rest with 401). Download refusals
 * count no failure: the lockout guards the completion, where tokens are tried.
 */
export type DownloadOutcome = 'ok' | 'missing_token' | 'wrong_token' | 'revoked' | 'not_completed' | 'expired' | 'locked';

/** A challenge with as many wrong tokens as it takes is locked, whatever token comes next, until a new challenge replaces it. */
export function isLocked(challenge: Pick<ChallengeState, 'failures' | 'maxFailures'>): boolean {
  return challenge.failures >= challenge.maxFailures;
}

/**
 * Decides a completion try against the request's current challenge (null when
 * none was issued: any token is then a wrong one, and there is nothing to
 * count it against). A locked challenge refuses even the right token; the
 * token is compared in constant time.
 */
export function completionOutcome(current: ChallengeState | null, token: string, now: Date): CompletionOutcome {
  if (!current) return 'wrong_token';
  if (isLocked(current)) return 'locked';
  if (!stepUpTokenMatches(current.tokenHash, token)) return 'wrong_token';
  if (stepUpExpired(current.expiresAt, now)) return 'expired';
  return current.completedAt ? 'already_completed' : 'ok';
}

/** The answer to a wrong token once its failure was counted: `locked` when this one reached the limit. */
export function outcomeAfterFailure(failuresNow: number, maxFailures: number): 'wrong_token' | 'locked' {
  return failuresNow >= maxFailures ? 'locked' : 'wrong_token';
}

/**
 * Decides a download's token: `presented` is the request's challenge whose
 * stored hash is the token's (null when none is), current or replaced. Only a
 * completed, unexpired, unlocked token of the current challenge opens it.
 */
export function downloadOutcome(token: string | undefined, presented: ChallengeState | null, now: Date): DownloadOutcome {
  if (token === undefined || token.trim() === '') return 'missing_token';
  if (!presented || !stepUpTokenMatches(presented.tokenHash, token)) return 'wrong_token';
  if (presented.revokedAt) return 'revoked';
  if (isLocked(presented)) return 'locked';
  if (stepUpExpired(presented.expiresAt, now)) return 'expired';
  return presented.completedAt ? 'ok' : 'not_completed';
}
