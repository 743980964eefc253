import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type CloudEventEnvelope,
  defaultVerificationLevel,
  DEFAULT_VERIFICATION_METHOD,
  DEFAULT_VERIFICATION_REJECTION_REASON,
  allowedActionsOf,
  type LifecycleAction,
  type Principal,
  type RequestDetail,
  type RequestStatus,
  type VerificationApproveCommand,
  type VerificationApprovedV1,
  type VerificationCancelledV1,
  VerificationEventTypes,
  type VerificationRejectCommand,
  type VerificationRejectedV1,
  type VerificationRequestCommand,
  type VerificationRequested,
  type VerificationRequestedCaseV1,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { UnitOfWork } from '@dsar/platform/persistence';
import { caseScheduleOf, rulesForTenant } from '../domain/case-schedule';
import { type PendingDecision, VerificationCaseEntity } from '../infrastructure/verification-case.entity';
import { VERIFICATION_SETTINGS, type VerificationSettings } from '../verification-settings';

const CLOSED: readonly RequestStatus[] = ['fulfilled', 'refused', 'closed'];

/** The outcome a decision records. */
export type Decision = PendingDecision;

/**
 * Verification cases: opening one (the request waits in
 * verification_pending, the clock pauses as the pack says), and deciding it.
 * The request's status and clock change only through lifecycle-clock's
 * internal API, called first and with a key derived from the case, so a
 * retry replays its answer; the case records the outcome afterwards, in a
 * transaction of its own with its event (no transaction ever waits on
 * another service). Of two racing decisions lifecycle-clock lets one through
 * and refuses the other with 409.
 */
@Injectable()
export class VerificationCases {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly lifecycle: LifecycleClient,
    private readonly clock: Clock,
    @Inject(VERIFICATION_SETTINGS) private readonly settings: VerificationSettings,
  ) {}

  /** The transaction the caller is in (an event handler's inbox transaction), else the data source: in embedded mode one database session serves every service, so a read must never wait outside the transaction that holds it. */
  private get db(): EntityManager {
    return this.uow.manager;
  }

  async request(principal: Principal, requestId: string, command: VerificationRequestCommand): Promise<VerificationRequested> {
    const detail = await this.lifecycle.request(principal, requestId);
    const pending = await this.pendingCase(principal.tenantId, requestId);
    // Asking again while a case is pending returns it; nothing pauses twice.
    if (pending) return { requestId, caseId: pending.id, status: 'verification_pending' };
    if (CLOSED.includes(detail.status)) throw disallowed(detail, 'request_verification');

    const seq = (await this.db.getRepository(VerificationCaseEntity).count({ where: { requestId } })) + 1;
    const pauseClock = command.pauseClock ?? true;
    try {
      await this.lifecycle.transition(principal, requestId, 'verification-requested', `verification:${requestId}:case-${seq}`, { pauseClock });
    } catch (e) {
      // The request already waits for verification without a case here (another caller's case being recorded, or one lost
      // to a crash after lifecycle-clock moved): the case asked for is the one it waits for.
      if (!(e instanceof ProblemError && e.definition.name === 'LIFECYCLE_TRANSITION_DISALLOWED')) throw e;
      if ((await this.lifecycle.request(principal, requestId)).status !== 'verification_pending') throw e;
    }
    const opened = await this.open(principal, detail, seq, command, pauseClock);
    return { requestId, caseId: opened.id, status: 'verification_pending' };
  }

  async approve(principal: Principal, requestId: string, command: VerificationApproveCommand): Promise<{ requestId: string; status: RequestStatus }> {
    const pending = await this.requirePending(principal, requestId, 'approve_verification');
    const decision: Decision = { outcome: 'approved', by: principal.id, method: command.method ?? pending.method, note: command.note ?? null };
    await this.intend(pending, decision);
    const result = await this.lifecycle.transition(principal, requestId, 'verification-approved', `verification:${pending.id}:approve`);
    await this.decide(pending, decision);
    return { requestId, status: result.status };
  }

  async reject(principal: Principal, requestId: string, command: VerificationRejectCommand): Promise<{ requestId: string; status: RequestStatus }> {
    const pending = await this.requirePending(principal, requestId, 'reject_verification');
    const decision: Decision = { outcome: 'rejected', by: principal.id, reason: command.reason ?? DEFAULT_VERIFICATION_REJECTION_REASON, note: command.message ?? null };
    await this.intend(pending, decision);
    const result = await this.lifecycle.transition(principal, requestId, 'verification-rejected', `verification:${pending.id}:reject`);
    await this.decide(pending, decision);
    return { requestId, status: result.status };
  }

  /** Notes the decision about to be asked for, so that whoever records the outcome first records this one. */
  async intend(target: VerificationCaseEntity, decision: Decision): Promise<void> {
    await this.uow.run((tx) => tx.update(VerificationCaseEntity, { id: target.id, status: 'pending' }, { pendingDecision: decision }));
  }

  /**
   * Records a decision lifecycle-clock has accepted, with its event, if the case is still pending; returns
   * whether this call recorded it. Called by the deciding caller and, from the request's event, by
   * RequestOutcomeHandler: the first one records it, once.
   */
  async decide(target: VerificationCaseEntity, decision: Decision): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const row = await tx.findOne(VerificationCaseEntity, { where: { id: target.id }, lock: { mode: 'pessimistic_write' } });
      if (!row || row.status !== 'pending') return false;
      const now = this.clock.now();
      row.status = decision.outcome;
      row.decidedAt = now;
      row.decidedBy = decision.by;
      row.decisionMethod = decision.outcome === 'approved' ? (decision.method ?? row.method) : null;
      row.decisionReason = decision.outcome === 'approved' ? null : (decision.reason ?? (decision.outcome === 'expired' ? 'no_response' : DEFAULT_VERIFICATION_REJECTION_REASON));
      row.decisionNote = decision.note ?? null;
      row.pendingDecision = null;
      await tx.save(row);
      const facts = { ...this.caseFacts(row), actor: decision.by, occurredAt: now.toISOString() };
      if (decision.outcome === 'approved') {
        await this.record(tx, row, VerificationEventTypes.approved, { ...facts, method: row.decisionMethod ?? row.method, hasNote: row.decisionNote !== null } satisfies VerificationApprovedV1);
      } else if (decision.outcome === 'rejected') {
        await this.record(tx, row, VerificationEventTypes.rejected, {
          ...facts,
          reason: row.decisionReason ?? DEFAULT_VERIFICATION_REJECTION_REASON,
          hasMessage: row.decisionNote !== null,
        } satisfies VerificationRejectedV1);
      } else {
        await this.record(tx, row, VerificationEventTypes.expired, { ...facts, requestedAt: row.requestedAt.toISOString(), expiresAt: (row.expiresAt ?? now).toISOString() });
      }
      return true;
    });
  }

  /** Ends a pending case because the request left verification another way (closed, refused); no reminder follows. */
  async cancel(requestId: string, requestStatus: string, actor: string): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const row = await tx.findOne(VerificationCaseEntity, { where: { requestId, status: 'pending' }, lock: { mode: 'pessimistic_write' } });
      if (!row) return false;
      const now = this.clock.now();
      Object.assign(row, { status: 'cancelled', pendingDecision: null, decidedAt: now, decidedBy: actor, decisionMethod: null, decisionReason: null, decisionNote: null });
      await tx.save(row);
      await this.record(tx, row, VerificationEventTypes.cancelled, { ...this.caseFacts(row), actor, occurredAt: now.toISOString(), requestStatus } satisfies VerificationCancelledV1);
      return true;
    });
  }

  /** The request's pending case, if any (within the caller's tenant). */
  pendingCase(tenantId: string, requestId: string): Promise<VerificationCaseEntity | null> {
    return this.db.getRepository(VerificationCaseEntity).findOne({ where: { tenantId, requestId, status: 'pending' } });
  }

  /** The request's newest case, if any. */
  latestCase(tenantId: string, requestId: string): Promise<VerificationCaseEntity | null> {
    return this.db.getRepository(VerificationCaseEntity).findOne({ where: { tenantId, requestId }, order: { seq: 'DESC' } });
  }

  caseFacts(row: VerificationCaseEntity) {
    return { requestId: row.requestId, tenantId: row.tenantId, workspaceId: row.workspaceId, caseId: row.id };
  }

  /** Records an event of the case's request (its timeline and audit chain) in the transaction. */
  record(tx: EntityManager, row: Pick<VerificationCaseEntity, 'requestId' | 'tenantId'>, type: string, data: Record<string, unknown>): Promise<CloudEventEnvelope> {
    return this.outbox.record(tx, { type, subject: row.requestId, tenantId: row.tenantId, data });
  }

  private async requirePending(principal: Principal, requestId: string, action: LifecycleAction): Promise<VerificationCaseEntity> {
    const detail = await this.lifecycle.request(principal, requestId);
    const pending = await this.pendingCase(principal.tenantId, requestId);
    if (!pending || detail.status !== 'verification_pending') throw disallowed(detail, action, pending === null);
    return pending;
  }

  private async open(principal: Principal, detail: RequestDetail, seq: number, command: VerificationRequestCommand, pauseClock: boolean): Promise<VerificationCaseEntity> {
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      const method = command.method ?? DEFAULT_VERIFICATION_METHOD;
      const schedule = caseScheduleOf(rulesForTenant(this.settings, this.settings.tenants, detail.tenantId), now);
      const row = tx.create(VerificationCaseEntity, {
        id: randomUUID(),
        tenantId: detail.tenantId,
        workspaceId: detail.workspaceId,
        requestId: detail.id,
        seq,
        status: 'pending',
        level: command.level ?? defaultVerificationLevel(detail.requestType),
        method,
        methodsAllowed: command.methodsAllowed ?? [method],
        pauseClock,
        reasonForDoubt: command.reasonForDoubt ?? null,
        requestedAt: now,
        requestedBy: principal.id,
        reminderDays: schedule.reminderDays,
        expiresAt: schedule.expiresAt,
        expiryClaimedUntil: null,
        pendingDecision: null,
        decidedAt: null,
        decidedBy: null,
        decisionMethod: null,
        decisionReason: null,
        decisionNote: null,
      });
      // A concurrent caller recorded the same case (same request and number), or another pending one: that one stands.
      const inserted = await tx.createQueryBuilder().insert().into(VerificationCaseEntity).values(row).orIgnore().returning(['id']).execute();
      if (inserted.raw.length === 0) {
        const existing = await tx.findOne(VerificationCaseEntity, { where: { requestId: detail.id, status: 'pending' } });
        if (existing) return existing;
        throw new ProblemError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'Another verification request for this request is being recorded; retry.');
      }
      await this.record(tx, row, VerificationEventTypes.requested, {
        ...this.caseFacts(row),
        actor: principal.id,
        occurredAt: now.toISOString(),
        level: row.level,
        method: row.method,
        methodsAllowed: row.methodsAllowed,
        pauseClock,
        hasReasonForDoubt: row.reasonForDoubt !== null,
        reminderDays: row.reminderDays,
        expiresAt: row.expiresAt?.toISOString() ?? null,
      } satisfies VerificationRequestedCaseV1);
      return row;
    });
  }
}

function disallowed(detail: RequestDetail, action: LifecycleAction, noCase = false): ProblemError {
  const status = detail.status;
  const why = noCase && status === 'verification_pending' ? 'it has no pending verification case' : `it is ${status}`;
  return new ProblemError('LIFECYCLE_TRANSITION_DISALLOWED', `${action} is not allowed: ${why}.`, undefined, { currentStatus: status, action, allowedActions: allowedActionsOf(detail) });
}
