import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  bindingIn,
  type ClockChangeResult,
  type ClockExplanation,
  type ClockPausedV1,
  type ClockResumedV1,
  DEFAULT_EXTENSION_JUSTIFICATION,
  type DeadlineExtendedV1,
  type ExtensionCommand,
  type LifecycleAction,
  type PauseReason,
  type PauseCommand,
  type PolicyRepinnedV1,
  type PolicyPack,
  type Principal,
  RequestEventTypes,
  type RequestType,
  type ResumeCommand,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { scopeOf, type TenantScope } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { UnitOfWork } from '@dsar/platform/persistence';
import { type ClockEvent, type ClockInput, type ClockResult, ClockRuleError, computeClock, defaultExtension, isoDuration } from '@dsar/platform/deadline';
import { isInFuture } from '../domain/clock-skew';
import { ClockEventEntity, type CorrectionDetails } from '../infrastructure/clock-event.entity';
import type { RequestEntity } from '../infrastructure/request.entity';
import { requireAllowed } from './lifecycle-guard';
import { type PinnedPack, PolicyCopy } from './policy-copy';
import { RequestRegistry } from './request-registry';

/**
 * The legal clock of stored requests: replays a request's clock events on its
 * pinned pack to explain the deadline, and appends pauses, resumes and
 * extensions after the engine has accepted them. Every change locks the
 * request row, so concurrent changes are applied one after the other, and
 * commits the new event, the new `dueAt` and a domain event together.
 */
@Injectable()
export class RequestClock {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly registry: RequestRegistry,
    private readonly clock: Clock,
    private readonly policies: PolicyCopy,
  ) {}

  async explain(scope: TenantScope, id: string, now = this.clock.now()): Promise<ClockExplanation> {
    const row = await this.registry.require(scope, id);
    const manager = this.uow.dataSource.manager;
    const events = await this.eventsOf(manager, row.id);
    const input = await this.inputOf(manager, row, events);
    return explanationOf(row, input, computeClock(input), events, now);
  }

  /** The pack document the request pinned (built-in, or a custom pack of its tenant). */
  packOf(manager: EntityManager, row: RequestEntity): Promise<PolicyPack> {
    return this.policies.packOf(manager, row);
  }

  /** The engine's input for a stored request and its clock events. */
  async inputOf(manager: EntityManager, row: RequestEntity, events: readonly ClockEventEntity[]): Promise<ClockInput> {
    return clockInputOf(row, events, await this.packOf(manager, row));
  }

  async extend(principal: Principal, id: string, command: ExtensionCommand, at?: Date): Promise<ClockChangeResult> {
    return this.uow.run(async (tx) => {
      const row = await this.lockOpen(tx, principal, id, 'extend_deadline');
      const now = at ?? this.clock.now();
      const { events, input } = await this.load(tx, row);
      const amount =
        command.additionalDays !== undefined || command.additionalMonths !== undefined
          ? { additionalDays: command.additionalDays, additionalMonths: command.additionalMonths }
          : withClockRules(() => defaultExtension(input));
      const justification = command.justification ?? DEFAULT_EXTENSION_JUSTIFICATION;
      const event: ClockEvent = { kind: 'extension', at: now, actor: principal.id, justification, reason: command.reason ?? null, ...amount };
      const { before, after } = this.replayWith(input, event);
      const granted = after.extensions[after.extensions.length - 1];
      await this.append(tx, row, events, {
        kind: 'extension',
        occurredAt: now,
        actor: principal.id,
        additionalDays: granted.additionalDays ?? null,
        additionalMonths: granted.additionalMonths ?? null,
        justification,
        extensionReason: granted.reason,
      });
      const data: DeadlineExtendedV1 = {
        ...this.subject(row, principal.id),
        additionalDays: granted.additionalDays ?? daysBetween(granted.previousDueAt, granted.dueAt),
        additionalMonths: granted.additionalMonths ?? null,
        justification,
        reason: granted.reason,
        notifiedAt: now.toISOString(),
        noticeDueAt: granted.noticeDueAt.toISOString(),
        previousDueAt: before.finalDueAt.toISOString(),
        dueAt: after.finalDueAt.toISOString(),
      };
      return this.commit(tx, row, after, before, RequestEventTypes.deadlineExtended, data);
    });
  }

  async pause(principal: Principal, id: string, command: PauseCommand, now?: Date): Promise<ClockChangeResult> {
    return this.uow.run(async (tx) => {
      const row = await this.lockOpen(tx, principal, id, 'pause_clock');
      // Without `at`, the pause happens when the row is locked: after every clock event committed before it.
      return this.pauseLocked(tx, row, principal, { reason: command.reason, at: eventTime(command.at, now ?? this.clock.now()), note: command.note ?? null });
    });
  }

  async resume(principal: Principal, id: string, command: ResumeCommand, now?: Date): Promise<ClockChangeResult> {
    return this.uow.run(async (tx) => {
      const row = await this.lockOpen(tx, principal, id, 'resume_clock');
      return this.resumeLocked(tx, row, principal, { at: eventTime(command.at, now ?? this.clock.now()), note: command.note ?? null });
    });
  }

  /** The clock's state right now, for a row the caller has locked: running, or paused and why. */
  async stateOf(tx: EntityManager, row: RequestEntity): Promise<{ paused: false } | { paused: true; reason: PauseReason }> {
    // Every clock change keeps clockPausedSince in step with the events, so a running clock needs no replay.
    if (!row.clockPausedSince) return { paused: false };
    const { input } = await this.load(tx, row);
    const clock = computeClock(input);
    const open = clock.pauses.find((p) => p.to === null);
    return open ? { paused: true, reason: open.reason } : { paused: false };
  }

  /** Pauses the clock inside the caller's transaction, on a row it has locked (workflow steps pause with their transition). */
  async pauseLocked(tx: EntityManager, row: RequestEntity, principal: Principal, pause: { reason: PauseReason; at: Date; note: string | null }): Promise<ClockChangeResult> {
    const { events, input } = await this.load(tx, row);
    const { before, after } = this.replayWith(input, { kind: 'pause', reason: pause.reason, at: pause.at, actor: principal.id });
    await this.append(tx, row, events, { kind: 'pause', pauseReason: pause.reason, occurredAt: pause.at, actor: principal.id, note: pause.note });
    const data: ClockPausedV1 = {
      ...this.subject(row, principal.id),
      reason: pause.reason,
      rule: after.rule.pauses[pause.reason],
      pausedAt: pause.at.toISOString(),
      dueAt: after.finalDueAt.toISOString(),
    };
    return this.commit(tx, row, after, before, RequestEventTypes.clockPaused, data);
  }

  /** Ends the open pause inside the caller's transaction, on a row it has locked. */
  async resumeLocked(tx: EntityManager, row: RequestEntity, principal: Principal, resume: { at: Date; note: string | null }): Promise<ClockChangeResult> {
    const { events, input } = await this.load(tx, row);
    const { before, after } = this.replayWith(input, { kind: 'resume', at: resume.at, actor: principal.id });
    const ended = after.pauses[after.pauses.length - 1];
    await this.append(tx, row, events, { kind: 'resume', occurredAt: resume.at, actor: principal.id, note: resume.note });
    const data: ClockResumedV1 = {
      ...this.subject(row, principal.id),
      reason: ended.reason,
      rule: ended.rule,
      effect: ended.effect === 'pending' ? 'ignored' : ended.effect,
      pausedAt: ended.from.toISOString(),
      resumedAt: resume.at.toISOString(),
      excludedDays: ended.excludedDays,
      previousDueAt: before.finalDueAt.toISOString(),
      dueAt: after.finalDueAt.toISOString(),
    };
    return this.commit(tx, row, after, before, RequestEventTypes.clockResumed, data);
  }

  /**
   * Starts the appeal clock of a request an approved appeal reopens, inside the caller's transaction.
   * The reopening's own event (dsar.request.reopened.v1) tells the world; this returns the new deadline.
   */
  async reopenLocked(tx: EntityManager, row: RequestEntity, principal: Principal, at: Date): Promise<{ previousDueAt: Date; dueAt: Date }> {
    const { events, input } = await this.load(tx, row);
    const { before, after } = this.replayWith(input, { kind: 'reopen', at, actor: principal.id });
    await this.append(tx, row, events, { kind: 'reopen', occurredAt: at, actor: principal.id });
    row.dueAt = after.finalDueAt;
    row.clockPausedSince = after.pausedSince;
    row.acknowledgementDueAt = after.acknowledgementDueAt;
    return { previousDueAt: before.finalDueAt, dueAt: after.finalDueAt };
  }

  /**
   * Moves a request the caller has locked to another version of its pack (an applied upgrade that re-pins open
   * requests): the clock is recomputed from receipt on the new rules with every pause and extension it had, a
   * `repin` clock event records the move, and `dsar.request.policy_repinned.v1` says whether the deadline got
   * earlier. Returns false, changing nothing, when the new rules refuse the request's clock history (an
   * extension they do not allow): the request keeps its pinned version.
   */
  async repinLocked(tx: EntityManager, row: RequestEntity, to: { pack: PolicyPack; basis: string }, change: { proposalId: string; actor: string; at: Date }): Promise<boolean> {
    const { events, input } = await this.load(tx, row);
    const before = computeClock(input);
    let after: ClockResult;
    try {
      after = computeClock({ ...input, pack: to.pack, binding: bindingIn(to.pack, row.jurisdiction) ?? input.binding });
    } catch (error) {
      if (error instanceof ClockRuleError) return false;
      throw error;
    }
    const fromVersion = row.policyVersion;
    await this.append(tx, row, events, { kind: 'repin', occurredAt: change.at, actor: change.actor, fromVersion, toVersion: to.pack.version, note: `upgrade proposal ${change.proposalId}` });
    row.policyVersion = to.pack.version;
    row.policyBasis = to.basis;
    row.acknowledgementDueAt = after.acknowledgementDueAt;
    const data: PolicyRepinnedV1 = {
      ...this.subject(row, change.actor),
      fromVersion,
      proposalId: change.proposalId,
      previousDueAt: before.finalDueAt.toISOString(),
      dueAt: after.finalDueAt.toISOString(),
      shortened: after.finalDueAt.getTime() < before.finalDueAt.getTime(),
    };
    await this.commit(tx, row, after, before, RequestEventTypes.policyRepinned, data);
    return true;
  }

  /**
   * Corrects the request type and/or jurisdiction of a request the caller has locked (a lifecycle step that records
   * its own event): the clock is recomputed from the same receipt on the corrected facts, with every pause and
   * extension it had, and a `correction` clock event keeps what changed and why. A new jurisdiction takes the pack
   * version it would have had at receipt (`to.pinned`); the same one keeps the pinned version. The clock mode stays
   * unless the new pack does not allow it, then it is that pack's default. Rules that refuse the clock's history
   * are a 422 CORRECTION_CONFLICTS_WITH_CLOCK, changing nothing.
   */
  async correctLocked(
    tx: EntityManager,
    row: RequestEntity,
    /** null: the request stays in triage (a correction of its jurisdiction alone). */
    to: { requestType: RequestType | null; pinned: PinnedPack | null },
    change: { actor: string; at: Date; reason: string },
  ): Promise<CorrectionDetails> {
    const { events, input } = await this.load(tx, row);
    const before = computeClock(input);
    const pack = to.pinned?.pack ?? input.pack;
    const clockMode = pack.clockModes.allowed.includes(row.clockMode) ? row.clockMode : pack.clockModes.default;
    let after: ClockResult;
    try {
      after = computeClock({ ...input, pack, binding: to.pinned?.binding ?? input.binding, requestType: to.requestType, clockMode });
    } catch (error) {
      if (!(error instanceof ClockRuleError)) throw error;
      throw new ProblemError('CORRECTION_CONFLICTS_WITH_CLOCK', `The corrected request falls under rules that refuse its clock's history: ${error.message}`, undefined, { violation: error.violation });
    }
    const facts = (dueAt: Date) => ({ requestType: row.requestType, jurisdiction: row.jurisdiction, policyPack: row.policyPack, policyVersion: row.policyVersion, dueAt: dueAt.toISOString() });
    const from = facts(before.finalDueAt);
    row.requestType = to.requestType;
    row.clockMode = clockMode;
    if (to.pinned) {
      row.jurisdiction = to.pinned.binding.code;
      row.policyPack = to.pinned.pack.packId;
      row.policyVersion = to.pinned.pack.version;
      row.policyBasis = to.pinned.basis;
    }
    const correction: CorrectionDetails = { from, to: facts(after.finalDueAt) };
    await this.append(tx, row, events, { kind: 'correction', occurredAt: change.at, actor: change.actor, note: change.reason, correction });
    row.dueAt = after.finalDueAt;
    row.clockPausedSince = after.pausedSince;
    row.acknowledgementDueAt = after.acknowledgementDueAt;
    return correction;
  }

  /** The locked row of an open request: the clock of a finished request no longer changes. */
  private async lockOpen(tx: EntityManager, principal: Principal, id: string, action: LifecycleAction): Promise<RequestEntity> {
    const row = await this.registry.require(scopeOf(principal), id, { manager: tx, lock: true });
    requireAllowed(row, action);
    return row;
  }

  private async load(tx: EntityManager, row: RequestEntity) {
    const events = await this.eventsOf(tx, row.id);
    return { events, input: await this.inputOf(tx, row, events) };
  }

  /** The clock before and after one more event; a rule the event breaks becomes the matching problem response. */
  private replayWith(input: ClockInput, event: ClockEvent): { before: ClockResult; after: ClockResult } {
    const before = computeClock(input);
    const after = withClockRules(() => computeClock({ ...input, events: [...input.events, event] }));
    return { before, after };
  }

  private async append(tx: EntityManager, row: RequestEntity, existing: ClockEventEntity[], fields: Partial<ClockEventEntity>): Promise<void> {
    await tx.insert(ClockEventEntity, {
      id: randomUUID(),
      tenantId: row.tenantId,
      requestId: row.id,
      seq: existing.length + 1,
      pauseReason: null,
      additionalDays: null,
      additionalMonths: null,
      justification: null,
      extensionReason: null,
      note: null,
      correction: null,
      ...fields,
    });
  }

  private async commit(
    tx: EntityManager,
    row: RequestEntity,
    after: ClockResult,
    before: ClockResult,
    type: string,
    data: DeadlineExtendedV1 | ClockPausedV1 | ClockResumedV1 | PolicyRepinnedV1,
  ): Promise<ClockChangeResult> {
    const event = await this.outbox.record(tx, { type, subject: row.id, tenantId: row.tenantId, data });
    row.dueAt = after.finalDueAt;
    row.clockPausedSince = after.pausedSince;
    row.lastEventId = event.id;
    await tx.save(row);
    return { id: row.id, status: row.status as ClockChangeResult['status'], dueAt: row.dueAt.toISOString(), previousDueAt: before.finalDueAt.toISOString(), clockState: after.state };
  }

  private subject(row: RequestEntity, actor: string) {
    return {
      requestId: row.id,
      tenantId: row.tenantId,
      workspaceId: row.workspaceId,
      jurisdiction: row.jurisdiction,
      policyPack: row.policyPack,
      policyVersion: row.policyVersion,
      actor,
    };
  }

  private eventsOf(manager: EntityManager, requestId: string): Promise<ClockEventEntity[]> {
    return manager.find(ClockEventEntity, { where: { requestId }, order: { seq: 'ASC' } });
  }
}

/** The engine's input for a stored request: its pinned pack version, its jurisdiction's calendar, its clock events. */
export function clockInputOf(row: RequestEntity, events: readonly ClockEventEntity[], pack: PolicyPack): ClockInput {
  const binding = bindingIn(pack, row.jurisdiction);
  if (!binding) {
    throw new ProblemError('INTERNAL_ERROR', `Request ${row.id} is pinned to policy pack ${row.policyPack} ${row.policyVersion} for ${row.jurisdiction}, which this release does not ship.`);
  }
  return {
    pack,
    binding,
    requestType: row.requestType as RequestType | null,
    clockMode: row.clockMode,
    receivedAt: row.intakeReceivedAt,
    // A re-pin or a correction changed what the whole clock is computed on; neither is a step of the replay itself.
    events: events.filter((e) => e.kind !== 'repin' && e.kind !== 'correction').map(toClockEvent),
  };
}

function toClockEvent(e: ClockEventEntity): ClockEvent {
  switch (e.kind) {
    case 'pause':
      if (!e.pauseReason) throw new Error(`clock event ${e.id} is a pause without a reason`);
      return { kind: 'pause', reason: e.pauseReason, at: e.occurredAt, actor: e.actor };
    case 'resume':
      return { kind: 'resume', at: e.occurredAt, actor: e.actor };
    case 'reopen':
      return { kind: 'reopen', at: e.occurredAt, actor: e.actor };
    case 'repin':
    case 'correction':
      throw new Error(`clock event ${e.id} is a ${e.kind}, which the engine does not replay`);
    case 'extension':
      return {
        kind: 'extension',
        at: e.occurredAt,
        actor: e.actor,
        ...(e.additionalDays !== null ? { additionalDays: e.additionalDays } : {}),
        ...(e.additionalMonths !== null ? { additionalMonths: e.additionalMonths } : {}),
        justification: e.justification ?? DEFAULT_EXTENSION_JUSTIFICATION,
        reason: e.extensionReason,
      };
  }
}

/** A time the caller gave for a pause or resume (default now); never in the future. */
export function eventTime(given: string | undefined, now: Date): Date {
  const at = given ? new Date(given) : now;
  if (isInFuture(at, now)) {
    throw new ProblemError('CLOCK_EVENT_OUT_OF_ORDER', `'at' (${at.toISOString()}) is in the future.`, [{ field: 'at', message: 'must not be in the future' }]);
  }
  // Within the allowed skew a time ahead of ours is taken as now, so the clock's events never run ahead of it.
  return at.getTime() > now.getTime() ? now : at;
}

const FIELD_VIOLATIONS = new Set(['EXTENSION_UNIT_MISMATCH', 'EXTENSION_AMOUNT_REQUIRED', 'EXTENSION_REASON_REQUIRED']);

/** Runs engine code, turning a broken pack rule into the problem response of the catalog. */
function withClockRules<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof ClockRuleError)) throw error;
    if (FIELD_VIOLATIONS.has(error.violation)) {
      const field = typeof error.details.field === 'string' ? error.details.field : 'body';
      // Well-formed, but not what the request's pack accepts: a rule of the pack, not of the schema (422).
      throw new ProblemError('EXTENSION_TERMS_INVALID', error.message, [{ field, message: error.message }]);
    }
    const name = error.violation as Exclude<typeof error.violation, 'EXTENSION_UNIT_MISMATCH' | 'EXTENSION_AMOUNT_REQUIRED' | 'EXTENSION_REASON_REQUIRED'>;
    throw new ProblemError(name, error.message, undefined, error.details);
  }
}

function daysBetween(from: Date, to: Date): number {
  return Math.round((to.getTime() - from.getTime()) / (24 * 3600 * 1000));
}

/** `GET /requests/:id/clock/explain`. */
export function explanationOf(row: RequestEntity, input: ClockInput, clock: ClockResult, events: readonly ClockEventEntity[], now: Date): ClockExplanation {
  const iso = (d: Date) => d.toISOString();
  // Pauses come out of the engine in the order their pause events were stored; the notes ride along.
  const pauseEvents = events.filter((e) => e.kind === 'pause');
  const resumeEvents = events.filter((e) => e.kind === 'resume');
  const corrections = events.filter((e) => e.kind === 'correction' && e.correction !== null);
  return {
    requestId: row.id,
    jurisdiction: row.jurisdiction,
    requestType: input.requestType,
    baseDeadline: iso(clock.baseDeadline),
    finalDueAt: iso(clock.finalDueAt),
    policyPack: input.pack.packId,
    policyVersion: input.pack.version,
    policyBasis: row.policyBasis ?? `${input.pack.packId} ${input.pack.version}, pinned when the request was created.`,
    repins: events.filter((e) => e.kind === 'repin').map((e) => ({ at: iso(e.occurredAt), fromVersion: e.fromVersion ?? '', toVersion: e.toVersion ?? '', actor: e.actor, note: e.note })),
    corrections: corrections.map((e) => ({
      step: 'corrected' as const,
      at: iso(e.occurredAt),
      actor: e.actor,
      reason: e.note ?? '',
      ...(e.correction as { from: Corrected; to: Corrected }),
    })),
    extensions: clock.extensions.map((e) => ({
      additionalDays: e.additionalDays ?? daysBetween(e.previousDueAt, e.dueAt),
      ...(e.additionalMonths !== undefined ? { additionalMonths: e.additionalMonths } : {}),
      justification: e.justification,
      reason: e.reason,
      notifiedAt: iso(e.at),
      noticeDueAt: iso(e.noticeDueAt),
      previousDueAt: iso(e.previousDueAt),
      dueAt: iso(e.dueAt),
      actor: e.actor,
    })),
    pauses: clock.pauses.map((p, i) => ({
      duration: isoDuration(p.from, p.to ?? now),
      note: pauseEvents[i]?.note ?? null,
      resumeNote: resumeEvents[i]?.note ?? null,
      reason: p.reason,
      rule: p.rule,
      effect: p.effect,
      excludedDays: p.excludedDays,
      from: iso(p.from),
      to: p.to ? iso(p.to) : null,
      actor: p.actor,
    })),
    clock: {
      clockMode: input.clockMode,
      dueAt: iso(clock.finalDueAt),
      receivedAt: iso(input.receivedAt),
      state: clock.state,
      pausedSince: clock.pausedSince ? iso(clock.pausedSince) : null,
      startedAt: iso(clock.startedAt),
      timeZone: input.binding.timeZone,
      lastDay: clock.lastDay,
      segments: clock.segments.map((s) => ({
        actor: s.actor,
        countsTowardDeadline: s.countsTowardDeadline,
        from: iso(s.from),
        to: s.to ? iso(s.to) : null,
        policyVersion: s.policyVersion,
        reason: s.reason,
        ...(s.rule ? { rule: s.rule } : {}),
      })),
    },
    deadlines: {
      acknowledgementDueAt: clock.acknowledgementDueAt ? iso(clock.acknowledgementDueAt) : null,
      refusalNoticeDueAt: iso(clock.refusalNoticeDueAt),
      extensionNoticeDueAt: clock.extensionNoticeDueAt ? iso(clock.extensionNoticeDueAt) : null,
    },
    rule: clock.rule,
    steps: [row.policyBasis ?? `Policy pack ${input.pack.packId} ${input.pack.version}.`, ...corrections.map((e) => correctedStep(e, input.receivedAt)), ...clock.steps],
  };
}

type Corrected = ClockExplanation['corrections'][number]['from'];

/** A correction in words: what changed, why, and that the clock counts again from the same receipt. */
function correctedStep(e: ClockEventEntity, receivedAt: Date): string {
  const { from, to } = e.correction as CorrectionDetails;
  const changes = [
    ...(from.requestType !== to.requestType ? [`request type ${typeInWords(from.requestType)} → ${typeInWords(to.requestType)}`] : []),
    ...(from.jurisdiction !== to.jurisdiction ? [`jurisdiction ${from.jurisdiction} → ${to.jurisdiction}`] : []),
    ...(from.policyPack !== to.policyPack || from.policyVersion !== to.policyVersion ? [`policy pack ${from.policyPack} ${from.policyVersion} → ${to.policyPack} ${to.policyVersion}`] : []),
  ];
  return (
    `Corrected at ${e.occurredAt.toISOString()} by ${e.actor}: ${changes.join('; ')} (reason: ${e.note ?? 'none given'}). ` +
    `The deadline is computed again from the same receipt (${receivedAt.toISOString()}) on the corrected facts: it was ${from.dueAt}, it is ${to.dueAt} after this correction.`
  );
}

/** A request type as the explanation writes it: a request in triage has none yet. */
function typeInWords(requestType: string | null): string {
  return requestType ?? '(triage)';
}
