import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { type EntityManager, IsNull } from 'typeorm';
import type { z } from 'zod';
import { DeliveryEventTypes, type Principal, type RequestDetail, type stepUpChallenge, type stepUpCompletedV1, type stepUpFailedV1, type stepUpIssuedV1 } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { UnitOfWork } from '@dsar/platform/persistence';
import { DELIVERY_SETTINGS, type DeliverySettings, deliverySettingsFrom } from '../delivery-settings';
import { type CompletionOutcome, completionOutcome, type DownloadOutcome, downloadOutcome, isLocked, outcomeAfterFailure } from '../domain/step-up-gate';
import { hashStepUpToken, newStepUpToken, stepUpExpiry } from '../domain/step-up-token';
import { DeliveryPreparationEntity } from '../infrastructure/delivery-preparation.entity';
import { StepUpChallengeEntity } from '../infrastructure/step-up-challenge.entity';
import { type DeliveryFacts, DeliveryLog } from './delivery-log';
import { DeliveryRequests } from './delivery-requests';
import { DownloadRefusalBudget } from './download-refusal-budget';

export type StepUpChallenge = z.infer<typeof stepUpChallenge>;
type Facts<T extends z.ZodType> = Omit<z.infer<T>, keyof DeliveryFacts>;

/** What was wrong with a refused token. */
export type TokenRefusal = Exclude<CompletionOutcome | DownloadOutcome, 'ok' | 'already_completed'>;
/** Why a try was refused, as the log and the `dsar.delivery.step_up_failed.v1` event say: the token's fault, or too many refused downloads. */
export type Refusal = TokenRefusal | 'throttled';

/**
 * The step-up gate of a delivery. A challenge issues a random token (shown
 * once, stored as its SHA-256) valid for 24 hours; completing the challenge
 * with it opens the request's downloads until it expires. A new challenge
 * revokes the one before. Wrong tokens are counted per challenge with one
 * atomic `UPDATE … SET failures = failures + 1`, so concurrent guesses all
 * count; at STEP_UP_MAX_FAILURES the challenge is locked (403) until a new
 * one is issued. Refusals are committed (counted, logged, published) before
 * the error is answered; a refusal repeating the log's newest entry only
 * counts in it. Refused downloads past the caller's budget for the request
 * (DOWNLOAD_REFUSALS_PER_HOUR) are answered 429 and logged as `throttled`.
 */
@Injectable()
export class StepUp {
  private readonly settings: DeliverySettings;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly requests: DeliveryRequests,
    private readonly log: DeliveryLog,
    private readonly refusalBudget: DownloadRefusalBudget,
    @Optional() @Inject(DELIVERY_SETTINGS) settings?: DeliverySettings,
  ) {
    this.settings = settings ?? deliverySettingsFrom({});
  }

  private get db(): EntityManager {
    return this.uow.manager;
  }

  /**
   * Issues a challenge for the request's prepared delivery (any security
   * level; 409 SVC-BE-1211 before delivery is prepared) and revokes the
   * current one. Serialized per request by a lock on its preparation.
   */
  async challenge(principal: Principal, requestId: string): Promise<StepUpChallenge> {
    const detail = await this.requests.collectable(principal, requestId, 'issue_step_up');
    const token = newStepUpToken();
    const facts = factsOf(detail);
    const issued = await this.uow.run(async (tx) => {
      const prepared = await tx.findOne(DeliveryPreparationEntity, { where: { requestId: detail.id, tenantId: detail.tenantId }, lock: { mode: 'pessimistic_write' } });
      if (!prepared) return null;
      const now = this.clock.now();
      const row = this.newChallenge(randomUUID(), facts, hashStepUpToken(token), principal.id, now);
      await this.replaceCurrent(tx, facts, row, `expires ${row.expiresAt.toISOString()}`);
      return row;
    });
    if (!issued) throw new ProblemError('DELIVERY_NOTHING_TO_DELIVER', `Delivery of request ${requestId} has not been prepared: prepare it first (POST …/delivery/prepare).`);
    return { requestId: detail.id, token, expiresAt: issued.expiresAt.toISOString() };
  }

  /**
   * Counts one wrong token (or code) against the challenge with one atomic `failures = failures + 1`, so that
   * concurrent ones all count; its failures after, or undefined when it could count no more (replaced, locked, or with
   * `unopened`, completed).
   */
  async countFailure(tx: EntityManager, challengeId: string, unopened = false): Promise<number | undefined> {
    const counted = await tx
      .createQueryBuilder()
      .update(StepUpChallengeEntity)
      .set({ failures: () => 'failures + 1' })
      .where(`id = :id AND revoked_at IS NULL AND failures < max_failures${unopened ? ' AND completed_at IS NULL' : ''}`, { id: challengeId })
      .returning(['failures'])
      .execute();
    const after = counted.raw as Array<{ failures: number }>;
    return after.length === 0 ? undefined : Number(after[0].failures);
  }

  /** A challenge of the request issued by `issuedBy` at `now`, valid for 24 hours, not yet tried. */
  newChallenge(id: string, facts: DeliveryFacts, tokenHash: string, issuedBy: string, now: Date): StepUpChallengeEntity {
    return {
      id,
      ...facts,
      tokenHash,
      issuedAt: now,
      issuedBy,
      expiresAt: stepUpExpiry(now),
      maxFailures: this.settings.stepUpMaxFailures,
      failures: 0,
      completedAt: null,
      completedBy: null,
      revokedAt: null,
    };
  }

  /**
   * Makes `challenge` the request's current one: revokes the current challenge, inserts the new one, and logs and
   * publishes `dsar.delivery.step_up_issued.v1`, in the caller's transaction (which holds the lock on the
   * preparation). `note` says what was issued, for the log. The links of the download page are issued through it too.
   */
  async replaceCurrent(tx: EntityManager, facts: DeliveryFacts, challenge: StepUpChallengeEntity, note: string): Promise<void> {
    const revoked = await tx
      .createQueryBuilder()
      .update(StepUpChallengeEntity)
      .set({ revokedAt: challenge.issuedAt })
      .where('request_id = :requestId AND revoked_at IS NULL', { requestId: challenge.requestId })
      .returning(['id'])
      .execute();
    const replaced = (revoked.raw as Array<{ id: string }>).map((r) => r.id);
    await tx.insert(StepUpChallengeEntity, challenge);
    await this.log.recordTry(
      tx,
      facts,
      DeliveryEventTypes.stepUpIssued,
      { actor: challenge.issuedBy, occurredAt: challenge.issuedAt.toISOString(), challengeId: challenge.id, expiresAt: challenge.expiresAt.toISOString() } satisfies Facts<typeof stepUpIssuedV1>,
      {
        outcome: 'issued',
        actor: challenge.issuedBy,
        at: challenge.issuedAt,
        challengeId: challenge.id,
        detail: `${note}${replaced.length > 0 ? `; replaces challenge ${replaced.join(', ')}` : ''}`,
      },
    );
  }

  /**
   * Completes the request's current challenge with its token: 202 (again 202
   * for a repeat), else 401 SVC-BE-1214 (wrong, foreign or expired token, or
   * no challenge) or 403 SVC-BE-1215 (locked; also the wrong token that
   * reaches the limit). Every try is logged; refusals also publish
   * `dsar.delivery.step_up_failed.v1`.
   */
  async complete(principal: Principal, requestId: string, token: string): Promise<{ requestId: string; status: 'completed' }> {
    const detail = await this.requests.collectable(principal, requestId, 'complete_step_up');
    const facts = factsOf(detail);
    const refusal = await this.uow.run(async (tx): Promise<TokenRefusal | null> => {
      const now = this.clock.now();
      const current = await tx.findOne(StepUpChallengeEntity, { where: { tenantId: detail.tenantId, requestId: detail.id, revokedAt: IsNull() } });
      let outcome: CompletionOutcome = completionOutcome(current, token, now);
      let row = current;
      if (outcome === 'ok' && row) {
        const done = await tx
          .createQueryBuilder()
          .update(StepUpChallengeEntity)
          .set({ completedAt: now, completedBy: principal.id })
          .where('id = :id AND completed_at IS NULL AND revoked_at IS NULL AND failures < max_failures', { id: row.id })
          .returning(['id'])
          .execute();
        if ((done.raw as unknown[]).length === 0) {
          // A concurrent call completed, locked or replaced it meanwhile: decide on the row as it is now.
          row = await tx.findOne(StepUpChallengeEntity, { where: { id: row.id } });
          outcome = !row || row.revokedAt ? 'wrong_token' : completionOutcome(row, token, now);
          if (outcome === 'ok') outcome = 'already_completed';
        }
      }
      if (outcome === 'ok' || outcome === 'already_completed') {
        const completed = row as StepUpChallengeEntity;
        if (outcome === 'ok') {
          await this.log.recordTry(
            tx,
            facts,
            DeliveryEventTypes.stepUpCompleted,
            { actor: principal.id, occurredAt: now.toISOString(), challengeId: completed.id } satisfies Facts<typeof stepUpCompletedV1>,
            { outcome: 'ok', actor: principal.id, at: now, challengeId: completed.id, detail: null },
          );
        } else {
          // Recorded once: a repeat is logged, and publishes nothing.
          await this.log.append(tx, facts, {
            eventType: DeliveryEventTypes.stepUpCompleted,
            eventId: null,
            outcome: 'already_completed',
            actor: principal.id,
            at: now,
            challengeId: completed.id,
            detail: 'the challenge was already completed',
          });
        }
        return null;
      }
      let failures = row?.failures ?? 0;
      let answer: TokenRefusal = outcome;
      let why = await this.refusalDetail(tx, outcome, row, token, detail);
      if (outcome === 'wrong_token' && row && !row.revokedAt) {
        const counted = await this.countFailure(tx, row.id);
        if (counted === undefined) {
          // Locked meanwhile by concurrent wrong tokens: this one is refused as locked, and counts no more.
          failures = row.maxFailures;
          answer = 'locked';
          outcome = 'locked';
          why = `locked after ${failures} wrong tokens; issue a new challenge`;
        } else {
          failures = counted;
          answer = outcomeAfterFailure(failures, row.maxFailures);
          why = `${why}; failure ${failures} of ${row.maxFailures}${answer === 'locked' ? ', the challenge is now locked' : ''}`;
        }
      }
      await this.refuse(tx, facts, principal, now, 'completion', outcome, row, failures, why);
      return answer;
    });
    if (refusal) throw refusalProblem(refusal);
    return { requestId: detail.id, status: 'completed' };
  }

  /**
   * The download gate: the challenge whose completed, unexpired token of this
   * request was presented; otherwise the refusal is logged and published, and
   * 401 SVC-BE-1214 (403 SVC-BE-1215 for a locked challenge) thrown. Refused
   * downloads count no failure, but each spends the caller's budget for the
   * request: past it, the refusal is a 429 (Retry-After) logged as
   * `throttled`, whatever was wrong and whichever artifact was asked for, so
   * that a loop of tries counts in one log entry. The right token is served
   * whatever the budget: the budget bounds what refusals cost, not the
   * person's download.
   */
  async authorize(principal: Principal, detail: RequestDetail, token: string | undefined, artifactId: string): Promise<StepUpChallengeEntity> {
    const presented =
      token && token.trim() !== ''
        ? await this.db.getRepository(StepUpChallengeEntity).findOne({ where: { tenantId: detail.tenantId, requestId: detail.id, tokenHash: hashStepUpToken(token) } })
        : null;
    const now = this.clock.now();
    const outcome = downloadOutcome(token, presented, now);
    if (outcome === 'ok') return presented as StepUpChallengeEntity;
    const retryAfter = await this.refusalBudget.spend(detail.tenantId, detail.id, principal.id);
    await this.uow.run(async (tx) => {
      const about = presented ?? (await tx.findOne(StepUpChallengeEntity, { where: { tenantId: detail.tenantId, requestId: detail.id, revokedAt: IsNull() } }));
      if (retryAfter !== undefined) {
        const why = `more than ${this.refusalBudget.perHour} refused downloads by this caller within an hour; answered 429 until the hour is over`;
        await this.refuse(tx, factsOf(detail), principal, now, 'download', 'throttled', about, about?.failures ?? 0, why);
        return;
      }
      const why = await this.refusalDetail(tx, outcome, presented, token ?? '', detail);
      await this.refuse(tx, factsOf(detail), principal, now, 'download', outcome, about, about?.failures ?? 0, `artifact ${artifactId}: ${why}`);
    });
    throw retryAfter !== undefined ? throttledProblem(this.refusalBudget.perHour, retryAfter) : refusalProblem(outcome);
  }

  /**
   * Logs a refused try and publishes `dsar.delivery.step_up_failed.v1`, in the transaction; a repeat of the log's newest
   * entry only counts in it. The person's download page refuses its links' codes and sessions through it too.
   */
  async refuse(
    tx: EntityManager,
    facts: DeliveryFacts,
    principal: Principal,
    now: Date,
    during: 'completion' | 'download',
    reason: Refusal,
    challenge: StepUpChallengeEntity | null,
    failures: number,
    detail: string,
  ): Promise<void> {
    const locked = challenge !== null && !challenge.revokedAt && isLocked({ failures, maxFailures: challenge.maxFailures });
    await this.log.recordRefusal(
      tx,
      facts,
      DeliveryEventTypes.stepUpFailed,
      { actor: principal.id, occurredAt: now.toISOString(), challengeId: challenge?.id ?? null, during, reason, failures, locked } satisfies Facts<typeof stepUpFailedV1>,
      { outcome: reason, actor: principal.id, at: now, challengeId: challenge?.id ?? null, detail: `${during}: ${detail}` },
    );
  }

  /** Words for the log on why a token was refused; a token of another request of the tenant, or of a replaced challenge, is named so. */
  private async refusalDetail(tx: EntityManager, outcome: TokenRefusal, challenge: StepUpChallengeEntity | null, token: string, detail: RequestDetail): Promise<string> {
    switch (outcome) {
      case 'missing_token':
        return 'no x-delivery-token';
      case 'expired':
        return `the token expired at ${challenge?.expiresAt.toISOString()}`;
      case 'locked':
        return `locked after ${challenge?.failures} wrong tokens; issue a new challenge`;
      case 'revoked':
        return "the token's challenge was replaced by a newer one";
      case 'not_completed':
        return 'the challenge was not completed';
      case 'wrong_token': {
        if (!challenge && !(await tx.exists(StepUpChallengeEntity, { where: { tenantId: detail.tenantId, requestId: detail.id } }))) return 'no challenge was issued';
        const owner = token ? await tx.findOne(StepUpChallengeEntity, { where: { tenantId: detail.tenantId, tokenHash: hashStepUpToken(token) } }) : null;
        if (owner && owner.requestId !== detail.id) return 'a token of another request';
        if (owner?.revokedAt) return 'a token of a replaced challenge';
        return "not the challenge's token";
      }
    }
  }
}

function factsOf(detail: RequestDetail): DeliveryFacts {
  return { requestId: detail.id, tenantId: detail.tenantId, workspaceId: detail.workspaceId };
}

/** The answer to a refused download past the caller's budget for the request: 429, and when to try again. */
export function throttledProblem(perHour: number, retryAfterSeconds: number): ProblemError {
  return new ProblemError(
    'RATE_LIMITED',
    `More than ${perHour} refused downloads of this request within an hour: retry in ${retryAfterSeconds} s, with the token of a completed challenge.`,
    undefined,
    {},
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** The answer to a refused token: 403 for a locked challenge, 401 for everything else. */
export function refusalProblem(refusal: TokenRefusal): ProblemError {
  if (refusal === 'locked') return new ProblemError('STEP_UP_LOCKED', 'Too many wrong tokens: this step-up challenge is locked. Issue a new challenge (POST …/delivery/step-up/challenge).');
  const why: Record<Exclude<TokenRefusal, 'locked'>, string> = {
    missing_token: 'No delivery token was sent (x-delivery-token).',
    wrong_token: "The token is not the one of this request's step-up challenge.",
    expired: 'The token has expired: issue a new challenge.',
    revoked: "The token's challenge was replaced by a newer one.",
    not_completed: "The token's challenge has not been completed (POST …/delivery/step-up/complete).",
  };
  return new ProblemError('STEP_UP_TOKEN_INVALID', why[refusal]);
}
