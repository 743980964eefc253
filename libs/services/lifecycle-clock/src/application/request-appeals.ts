import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type EntityManager, MoreThanOrEqual } from 'typeorm';
import {
  type AppealAccepted,
  type AppealByReplyCommand,
  type AppealByReplyOutcome,
  type AppealByReplyResult,
  type AppealCommand,
  type AppealDecided,
  type AppealDecisionCommand,
  type AppealView,
  isUuid,
  LifecycleEventTypes,
  type Principal,
} from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import type { TenantScope } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { appealDecisionDueAt } from '@dsar/platform/deadline';
import { REOPENED_STATUS } from '../domain/lifecycle/state-machine';
import { AppealEntity } from '../infrastructure/appeal.entity';
import type { RequestEntity } from '../infrastructure/request.entity';
import { eventTime, RequestClock } from './request-clock';
import { RequestLifecycle } from './request-lifecycle';
import { RequestRegistry } from './request-registry';

/**
 * Appeals against a request's outcome. An appeal can be filed against a
 * refused, fulfilled or closed request, one at a time; it must be decided by
 * the pack's appeal deadline. `approve` and `partial` reopen the request on
 * the appeal clock; a decision is final.
 */
@Injectable()
export class RequestAppeals {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly registry: RequestRegistry,
    private readonly lifecycle: RequestLifecycle,
    private readonly legalClock: RequestClock,
  ) {}

  async file(principal: Principal, id: string, command: AppealCommand, now?: Date): Promise<AppealAccepted> {
    const appealId = randomUUID();
    await this.lifecycle.step(principal, id, 'appeal', now, async ({ tx, row, principal: actor, now }) => {
      const dueAt = await this.open(tx, row, { id: appealId, message: command.message, grounds: command.grounds ?? null, submittedBy: actor.id, createdAt: now, countedFrom: now });
      return { type: LifecycleEventTypes.appealSubmitted, facts: { appealId, appealDueAt: dueAt.toISOString(), channel: 'api' }, details: { channel: 'api' } };
    });
    return { appealId, requestId: id, status: 'appeal_submitted' };
  }

  /**
   * A reply an inbound channel matched to a request (docs/webhooks.md#appeals-by-reply): filed as an appeal when the
   * request is `refused`, its pinned pack gives an appeal to the controller, the reply came after the refusal, no
   * appeal was filed since the refusal, and the sender is verified. Its words are the appeal's message, its channel
   * the one it came by, and its clock counts from when the channel received it. Otherwise nothing changes and the
   * answer says why; an unverified reply that would have been filed answers `sender_unverified`.
   */
  async fileByReply(principal: Principal, id: string, command: AppealByReplyCommand): Promise<AppealByReplyResult> {
    const appealId = randomUUID();
    let requestId = id;
    let appealDueAt = '';
    const eligible = async (row: RequestEntity, tx: EntityManager) => {
      requestId = row.id;
      const outcome = await this.replyOutcome(tx, row, command);
      if (outcome !== 'appeal_filed') throw new NotFiled(outcome);
    };
    try {
      await this.lifecycle.step(
        principal,
        id,
        'appeal',
        undefined,
        async ({ tx, row, principal: actor, now }) => {
          const receivedAt = eventTime(command.receivedAt, now);
          const message = command.message.trim() === '' ? `(The ${command.channel} reply had no text.)` : command.message;
          appealDueAt = (await this.open(tx, row, { id: appealId, message, grounds: null, submittedBy: actor.id, createdAt: now, countedFrom: receivedAt })).toISOString();
          return {
            type: LifecycleEventTypes.appealSubmitted,
            facts: { appealId, appealDueAt, channel: command.channel },
            details: { channel: command.channel, receivedAt: receivedAt.toISOString() },
          };
        },
        eligible,
      );
    } catch (e) {
      if (e instanceof NotFiled) return { requestId, outcome: e.outcome };
      throw e;
    }
    return { requestId, outcome: 'appeal_filed', appealId, appealDueAt };
  }

  /**
   * Records an open appeal against the request's current status (the row is locked), due by the pack's appeal deadline
   * counted from `countedFrom`, and returns that due date.
   */
  private async open(tx: EntityManager, row: RequestEntity, appeal: { id: string; message: string; grounds: string | null; submittedBy: string; createdAt: Date; countedFrom: Date }): Promise<Date> {
    const dueAt = appealDecisionDueAt(await this.legalClock.inputOf(tx, row, []), appeal.countedFrom);
    await tx.insert(AppealEntity, {
      id: appeal.id,
      tenantId: row.tenantId,
      requestId: row.id,
      message: appeal.message,
      grounds: appeal.grounds,
      status: 'appeal_submitted',
      appealedStatus: row.status,
      submittedBy: appeal.submittedBy,
      createdAt: appeal.createdAt,
      dueAt,
      decision: null,
      explanation: null,
      decidedBy: null,
      decidedAt: null,
    });
    row.openAppealId = appeal.id;
    return dueAt;
  }

  /** What a reply to this request comes to, by the rule of fileByReply (the row is locked). */
  private async replyOutcome(tx: EntityManager, row: RequestEntity, command: AppealByReplyCommand): Promise<AppealByReplyOutcome> {
    if (row.status !== 'refused') return 'not_refused';
    if ((await this.legalClock.packOf(tx, row)).appeal == null) return 'no_appeal_right';
    if (new Date(command.receivedAt).getTime() < row.statusChangedAt.getTime()) return 'before_refusal';
    const since = await tx.count(AppealEntity, { where: { requestId: row.id, createdAt: MoreThanOrEqual(row.statusChangedAt) } });
    if (row.openAppealId || since > 0) return 'appeal_exists';
    return command.senderVerified ? 'appeal_filed' : 'sender_unverified';
  }

  async list(scope: TenantScope, id: string): Promise<AppealView[]> {
    const row = await this.registry.require(scope, id);
    return this.viewsOf(this.uow.dataSource.manager, row.id);
  }

  async viewsOf(manager: EntityManager, requestId: string): Promise<AppealView[]> {
    const appeals = await manager.find(AppealEntity, { where: { requestId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return appeals.map(appealViewOf);
  }

  async decide(principal: Principal, id: string, appealId: string, command: AppealDecisionCommand, now?: Date): Promise<AppealDecided> {
    let appeal: AppealEntity | null = null;
    const lookUp = async (row: RequestEntity, tx: EntityManager) => {
      appeal = isUuid(appealId) ? await tx.findOne(AppealEntity, { where: { id: appealId, requestId: row.id } }) : null;
      if (!appeal) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${id} has no appeal ${appealId}.`);
      if (appeal.status === 'appeal_decided') {
        throw new ProblemError('APPEAL_ALREADY_DECIDED', `Appeal ${appealId} was decided (${appeal.decision}) at ${appeal.decidedAt?.toISOString()}; a decision is final.`, undefined, {
          decision: appeal.decision,
          decidedAt: appeal.decidedAt?.toISOString(),
        });
      }
    };
    await this.lifecycle.step(
      principal,
      id,
      'decide_appeal',
      now,
      async ({ tx, row, principal: actor, now }) => {
        const decided: AppealEntity | null = appeal;
        if (!decided) throw new Error(`appeal ${appealId} was not looked up`); // lookUp ran first, on the same locked row
        Object.assign(decided, { status: 'appeal_decided', decision: command.decision, explanation: command.explanation ?? null, decidedBy: actor.id, decidedAt: now });
        await tx.save(decided);
        row.openAppealId = null;
        const reopens = command.decision !== 'deny';
        const decidedEvent = {
          type: LifecycleEventTypes.appealDecided,
          facts: { appealId, decision: command.decision, reopened: reopens },
          details: { decision: command.decision, explanation: command.explanation ?? null },
        };
        if (!reopens) return decidedEvent;
        const { previousDueAt } = await this.legalClock.reopenLocked(tx, row, actor, now);
        return {
          ...decidedEvent,
          to: REOPENED_STATUS,
          // The reopening is the same decision: its record keeps the decision's words too, whichever event a reader looks up.
          followUps: [{ type: LifecycleEventTypes.reopened, facts: { appealId, previousDueAt: previousDueAt.toISOString() }, details: decidedEvent.details }],
        };
      },
      lookUp,
    );
    return { appealId, decision: command.decision, requestId: id, status: 'appeal_decided' };
  }
}

/** A reply that is not filed as an appeal: the step stops before it changes anything. */
class NotFiled extends Error {
  constructor(readonly outcome: Exclude<AppealByReplyOutcome, 'appeal_filed'>) {
    super(`not filed as an appeal: ${outcome}`);
  }
}

export function appealViewOf(a: AppealEntity): AppealView {
  return {
    id: a.id,
    message: a.message,
    grounds: a.grounds,
    status: a.status,
    createdAt: a.createdAt.toISOString(),
    dueAt: a.dueAt.toISOString(),
    ...(a.decision ? { decision: a.decision, explanation: a.explanation, decidedAt: a.decidedAt?.toISOString() } : {}),
  };
}
