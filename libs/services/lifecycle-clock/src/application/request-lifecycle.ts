import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type AcknowledgementCommand,
  type AuthorityRejectCommand,
  type AuthoritySubmitCommand,
  type ClarificationReceiveCommand,
  type ClarificationRequestCommand,
  type ClosureCommand,
  type ClosureReason,
  type CorrectionCommand,
  type CorrectionResult,
  bindingIn,
  type DuplicateResolutionCommand,
  type DuplicateResolvedV1,
  requestReference,
  DEFAULT_REFUSAL_REASON,
  isUuid,
  type LifecycleAction,
  LifecycleEventTypes,
  type LifecycleResult,
  OPEN_STATUSES,
  type PolicyPack,
  type Principal,
  type RefusalCommand,
  type RefusalReason,
  type RequestorCommand,
  type RequestCorrectedV1,
  type RequestType,
  type RequestStatus,
  type VerificationTransitionCommand,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { scopeOf, type TenantScope } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { UnitOfWork } from '@dsar/platform/persistence';
import { defaultRefusalNotice, type RefusalNoticeContext } from '../domain/lifecycle/refusal-notice';
import { nextStatus } from '../domain/lifecycle/state-machine';
import { requireJurisdiction } from '../domain/request-deadline';
import { RequestEntity } from '../infrastructure/request.entity';
import { RequestTransitionEntity, type TransitionDetails } from '../infrastructure/request-transition.entity';
import { lifecycleStateOf, requireAllowed } from './lifecycle-guard';
import { eventTime, RequestClock } from './request-clock';
import { PolicyCopy } from './policy-copy';
import { RequestIdentities } from './request-identities';
import { RequestRegistry } from './request-registry';

/** What one step produces beside the status change: its event and what to keep of the command. */
export interface StepOutcome {
  type: string;
  /** Event facts beyond the common transition facts. */
  facts: Record<string, unknown>;
  /** The command's words and choices, kept in request_transitions. */
  details?: TransitionDetails;
  /** Where the step leads when the command decides it (an appeal decision); default the state machine's. */
  to?: RequestStatus;
  /** Further events of the same step (an approved appeal also reopens the request). */
  followUps?: StepOutcome[];
}

/** The context a step runs in: the locked row (change it in place), the transaction, who acts, and when. */
export interface StepContext {
  tx: EntityManager;
  row: RequestEntity;
  principal: Principal;
  now: Date;
  from: RequestStatus;
  to: RequestStatus;
}

/**
 * The request workflow. Each command locks the request row, asks the state
 * machine whether its action is allowed (409 with the allowed actions if not),
 * makes its change (pausing or resuming the clock as the pack says), and
 * commits the new status, a transition record and a domain event together.
 * The row lock makes concurrent commands on one request run one after the
 * other: the second sees the first's status, so of two conflicting commands
 * exactly one wins.
 */
@Injectable()
export class RequestLifecycle {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly registry: RequestRegistry,
    private readonly legalClock: RequestClock,
    private readonly clock: Clock,
    private readonly policies: PolicyCopy,
    private readonly identities: RequestIdentities,
  ) {}

  acknowledge(principal: Principal, id: string, command: AcknowledgementCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'acknowledge', now, async ({ row, now }) => {
      const channel = command.channel ?? row.channel;
      row.acknowledgedAt = now;
      return {
        type: LifecycleEventTypes.acknowledged,
        facts: { channel, acknowledgementDueAt: row.acknowledgementDueAt?.toISOString() ?? null, hasMessage: command.message !== undefined },
        details: { channel, message: command.message ?? null },
      };
    });
  }

  requestClarification(principal: Principal, id: string, command: ClarificationRequestCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'request_clarification', now, async ({ tx, row, now }) => {
      const channel = command.channel ?? row.channel;
      // A clock already stopped (e.g. for a fee) stays as it is; otherwise the clarification pauses it.
      const clockPaused = !(await this.legalClock.stateOf(tx, row)).paused;
      if (clockPaused) await this.legalClock.pauseLocked(tx, row, principal, { reason: 'clarification', at: now, note: null });
      return { type: LifecycleEventTypes.clarificationRequested, facts: { channel, clockPaused }, details: { channel, message: command.message } };
    });
  }

  receiveClarification(principal: Principal, id: string, command: ClarificationReceiveCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'receive_clarification', now, async ({ tx, row, now }) => {
      const receivedAt = eventTime(command.receivedAt, now);
      const clockResumed = await this.resumeIfPausedFor(tx, row, principal, 'clarification', receivedAt);
      return {
        type: LifecycleEventTypes.clarificationReceived,
        facts: { receivedAt: receivedAt.toISOString(), clockResumed, hasMessage: command.message !== undefined },
        details: { message: command.message ?? null, receivedAt: receivedAt.toISOString() },
      };
    });
  }

  requestVerification(principal: Principal, id: string, command: VerificationTransitionCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'request_verification', now, async ({ tx, row, now }) => {
      const at = eventTime(command.at, now);
      let clockPaused = false;
      if (command.pauseClock !== false) {
        // Asking for identity while waiting for a clarification ends that wait: the identity check is what holds the request now.
        await this.resumeIfPausedFor(tx, row, principal, 'clarification', at);
        clockPaused = !(await this.legalClock.stateOf(tx, row)).paused;
        if (clockPaused) await this.legalClock.pauseLocked(tx, row, principal, { reason: 'verification', at, note: null });
      }
      return { type: LifecycleEventTypes.verificationRequested, facts: { clockPaused }, details: { pauseClock: command.pauseClock ?? true } };
    });
  }

  approveVerification(principal: Principal, id: string, command: VerificationTransitionCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'approve_verification', now, async ({ tx, row, now }) => {
      const clockResumed = await this.resumeIfPausedFor(tx, row, principal, 'verification', eventTime(command.at, now));
      return { type: LifecycleEventTypes.verified, facts: { clockResumed } };
    });
  }

  /** A refusal for want of identity: the requester is told it with the default notice, as a refusal without a message (docs/lifecycle.md). */
  rejectVerification(principal: Principal, id: string, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'reject_verification', now, async ({ tx, row }) => {
      const reason: RefusalReason = 'identity_not_verified';
      row.statusReason = reason;
      const pack = await this.legalClock.packOf(tx, row);
      return {
        type: LifecycleEventTypes.refused,
        facts: { reason, appealAvailable: pack.appeal != null },
        details: { reason, message: defaultRefusalNotice(reason, refusalNoticeContext(row, pack)), defaultMessage: true, rationale: null },
      };
    });
  }

  fulfil(principal: Principal, id: string, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'fulfil', now, async () => ({ type: LifecycleEventTypes.fulfilled, facts: {} }));
  }

  /** A refusal; without a message the requester gets the default notice of the reason, naming their right to complain (docs/lifecycle.md). */
  refuse(principal: Principal, id: string, command: RefusalCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'refuse', now, async ({ tx, row }) => {
      const reason = command.reason ?? DEFAULT_REFUSAL_REASON;
      row.statusReason = reason;
      const pack = await this.legalClock.packOf(tx, row);
      const message = command.message ?? defaultRefusalNotice(reason, refusalNoticeContext(row, pack));
      return {
        type: LifecycleEventTypes.refused,
        facts: { reason, appealAvailable: pack.appeal != null },
        details: { reason, message, defaultMessage: command.message === undefined, rationale: command.rationale ?? null },
      };
    });
  }

  close(principal: Principal, id: string, command: ClosureCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'close', now, async ({ row, from }) => {
      const reason: ClosureReason = command.reason ?? ((OPEN_STATUSES as readonly string[]).includes(from) ? 'withdrawn' : 'completed');
      row.statusReason = reason;
      return { type: LifecycleEventTypes.closed, facts: { reason }, details: { reason, message: command.message ?? null } };
    });
  }

  replaceRequestor(principal: Principal, id: string, command: RequestorCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'replace_requestor', now, async ({ tx, row }) => {
      const previousRequestorType = row.requestor?.type ?? null;
      row.requestor = command;
      // The identity index follows the request's contact details; the duplicate mark stays as intake set it.
      await this.identities.write(tx, row);
      return { type: LifecycleEventTypes.requestorReplaced, facts: { requestorType: command.type, previousRequestorType, emailKnown: emailKnownOf(row) } };
    });
  }

  /**
   * Corrects the request type and/or jurisdiction intake misread, on an open request: the clock counts again from
   * the same receipt on the corrected facts (RequestClock.correctLocked), and `dsar.request.corrected.v1` puts it on
   * the timeline and the audit chain. A correction that changes nothing (a second submission of one already applied,
   * once the first holds the row) is a 422, changing nothing. Each correction is recorded; a second one may follow.
   */
  async correct(principal: Principal, id: string, command: CorrectionCommand, now?: Date): Promise<CorrectionResult> {
    // An unknown code is refused before the request is looked at, as intake refuses it.
    const resolved = command.jurisdiction !== undefined ? requireJurisdiction(command.jurisdiction) : null;
    // What the step corrected, as it committed (a later command may change the row again before this answers).
    let corrected: Omit<CorrectionResult, 'id' | 'status' | 'dueAt'> | undefined;
    const result = await this.step(principal, id, 'correct_request', now, async ({ tx, row, now }) => {
      const current = row.requestType as RequestType | null;
      // Naming the type of a request in triage always changes it (null → a type): the correction resolves the triage.
      const requestType = command.requestType ?? current;
      const jurisdictionChanges = resolved !== null && resolved.binding.code !== row.jurisdiction;
      if (requestType === current && !jurisdictionChanges) {
        throw new ProblemError(
          'CORRECTION_CHANGES_NOTHING',
          `Request ${row.id} already has request type ${row.requestType} and jurisdiction ${row.jurisdiction}: the correction changes nothing.`,
          undefined,
          { requestType: row.requestType, jurisdiction: row.jurisdiction },
        );
      }
      const pinned = jurisdictionChanges
        ? await this.policies.choose(tx, { tenantId: row.tenantId, ...(row.workspaceId ? { workspaceId: row.workspaceId } : {}) }, resolved, row.intakeReceivedAt)
        : null;
      const { from } = await this.legalClock.correctLocked(tx, row, { requestType, pinned }, { actor: principal.id, at: now, reason: command.reason });
      corrected = { requestType, jurisdiction: row.jurisdiction, policyPack: row.policyPack, policyVersion: row.policyVersion, previousDueAt: from.dueAt };
      // The index follows the jurisdiction (a national phone number is read in its country), and the corrected facts
      // may repeat another open request: checked as intake checks a new one, unless a mark was already made.
      const written = await this.identities.write(tx, row);
      const mark = row.duplicateState === null ? await this.identities.markIfDuplicate(tx, row, written, now) : null;
      if (mark) {
        row.duplicateOf = mark.duplicateOf;
        row.duplicateState = 'marked';
        row.duplicateMarkedAt = new Date(mark.markedAt);
        row.duplicateMatchedKinds = mark.matchedKinds;
      }
      return {
        ...(mark ? { followUps: [{ type: LifecycleEventTypes.duplicateMarked, facts: { ...mark } }] } : {}),
        type: LifecycleEventTypes.corrected,
        facts: {
          jurisdiction: row.jurisdiction,
          requestType: row.requestType as RequestType | null,
          previousRequestType: from.requestType as RequestType | null,
          previousJurisdiction: from.jurisdiction,
          policyPack: row.policyPack,
          policyVersion: row.policyVersion,
          previousPolicyPack: from.policyPack,
          previousPolicyVersion: from.policyVersion,
          previousDueAt: from.dueAt,
          reason: command.reason,
        } satisfies Partial<RequestCorrectedV1>,
        details: { reason: command.reason },
      };
    });
    if (!corrected) throw new Error(`request ${id}: the correction step recorded nothing`);
    return { ...result, ...corrected };
  }

  /**
   * An operator's decision on a request intake marked as a duplicate (docs/identity.md#duplicates). `separated`: the
   * request is one of its own and is worked on as any other. `confirmed`: it is refused with reason `duplicate` in the
   * same step, and the person is told with the refusal notice, which by default names the request it repeats (the
   * notice the packs require when no action is taken). A request not waiting for a decision is a 409
   * `DUPLICATE_NOT_MARKED`; of two concurrent decisions the second finds the first's and gets it. Verification never
   * decides a mark: only this step does.
   */
  resolveDuplicate(principal: Principal, id: string, command: DuplicateResolutionCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'resolve_duplicate', now, async ({ tx, row }) => {
      const duplicateOf = row.duplicateOf;
      if (!duplicateOf) throw new Error(`request ${row.id} is marked as a duplicate of no request`);
      const resolved: StepOutcome = {
        type: LifecycleEventTypes.duplicateResolved,
        facts: { duplicateOf, resolution: command.resolution, reason: command.reason } satisfies Partial<DuplicateResolvedV1>,
        details: { resolution: command.resolution, duplicateOf, reason: command.reason },
      };
      if (command.resolution === 'separated') {
        row.duplicateState = 'separated';
        return resolved;
      }
      row.duplicateState = 'confirmed';
      const reason: RefusalReason = 'duplicate';
      row.statusReason = reason;
      const pack = await this.legalClock.packOf(tx, row);
      // The request it repeats may have been purged since (retention): the notice then names none.
      const repeated = await tx.exists(RequestEntity, { where: { id: duplicateOf, tenantId: row.tenantId } });
      const context = { ...refusalNoticeContext(row, pack), ...(repeated ? { repeatsReference: requestReference(duplicateOf) } : {}) };
      const message = command.message ?? defaultRefusalNotice(reason, context);
      return {
        ...resolved,
        to: 'refused',
        followUps: [
          {
            type: LifecycleEventTypes.refused,
            facts: { reason, appealAvailable: pack.appeal != null },
            details: { reason, message, defaultMessage: command.message === undefined, rationale: command.reason },
          },
        ],
      };
    });
  }

  submitAuthority(principal: Principal, id: string, command: AuthoritySubmitCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'submit_authority', now, async ({ tx, row }) => {
      row.authority = command;
      // Account ids given as evidence (`account_id`) are identities of the request.
      await this.identities.write(tx, row);
      return { type: LifecycleEventTypes.authoritySubmitted, facts: { authorityStatus: command.status, evidenceCount: command.evidenceArtifacts.length } };
    });
  }

  approveAuthority(principal: Principal, id: string, note: string | undefined, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'approve_authority', now, async ({ row, now }) => {
      row.authority = { ...submittedAuthority(row), status: 'verified', verifiedAt: now.toISOString() };
      return { type: LifecycleEventTypes.authorityApproved, facts: { authorityStatus: 'verified', hasReason: note !== undefined }, details: { note: note ?? null } };
    });
  }

  rejectAuthority(principal: Principal, id: string, command: AuthorityRejectCommand, now?: Date): Promise<LifecycleResult> {
    return this.step(principal, id, 'reject_authority', now, async ({ row }) => {
      const { verifiedAt: _dropped, ...evidence } = submittedAuthority(row);
      row.authority = { ...evidence, status: 'rejected' };
      return { type: LifecycleEventTypes.authorityRejected, facts: { authorityStatus: 'rejected', hasReason: command.reason !== undefined }, details: { reason: command.reason ?? null } };
    });
  }

  /**
   * The step of request `id` that emitted event `eventId`, with its words, for the caller's scope (the request's
   * tenant, and its workspace when the caller is confined to one, as every read). Another tenant's request, and an
   * event that is not one of this request's steps, are a 404.
   */
  async transitionOf(scope: TenantScope, id: string, eventId: string): Promise<RequestTransitionEntity> {
    const row = await this.registry.require(scope, id);
    const transition = isUuid(eventId) ? await this.registry.manager.findOne(RequestTransitionEntity, { where: { requestId: row.id, tenantId: row.tenantId, eventId } }) : null;
    if (!transition) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${id} has no step that emitted event ${eventId}.`);
    return transition;
  }

  /**
   * Runs one workflow step in its own transaction: lock, check, change, record.
   * `check` runs on the locked row before the state machine (appeals look up the appeal first).
   */
  async step(
    principal: Principal,
    id: string,
    action: LifecycleAction,
    /** When the step happens; default the moment the row is locked, so steps on one request are in time order. */
    at: Date | undefined,
    change: (ctx: StepContext) => Promise<StepOutcome>,
    check?: (row: RequestEntity, tx: EntityManager) => Promise<void>,
  ): Promise<LifecycleResult> {
    return this.uow.run(async (tx) => {
      const row = await this.registry.require(scopeOf(principal), id, { manager: tx, lock: true });
      const now = at ?? this.clock.now();
      await check?.(row, tx);
      requireAllowed(row, action);
      const from = row.status as RequestStatus;
      const planned = nextStatus(lifecycleStateOf(row), action);
      const outcome = await change({ tx, row, principal, now, from, to: planned });
      const to = outcome.to ?? planned;
      for (const o of [outcome, ...(outcome.followUps ?? [])]) await this.record(tx, row, principal, action, from, to, now, o);
      if (to !== from) {
        row.status = to;
        row.statusChangedAt = now;
        if ((OPEN_STATUSES as readonly string[]).includes(to)) row.statusReason = null;
      }
      await tx.save(row);
      return { id: row.id, status: row.status as RequestStatus, dueAt: row.dueAt.toISOString() };
    });
  }

  /** Commits one event of a step, with its transition record. */
  private async record(tx: EntityManager, row: RequestEntity, principal: Principal, action: LifecycleAction, from: RequestStatus, to: RequestStatus, now: Date, outcome: StepOutcome): Promise<void> {
    const data = {
      requestId: row.id,
      tenantId: row.tenantId,
      workspaceId: row.workspaceId,
      actor: principal.id,
      action,
      fromStatus: from,
      status: to,
      occurredAt: now.toISOString(),
      dueAt: row.dueAt.toISOString(),
      ...outcome.facts,
    };
    const event = await this.outbox.record(tx, { type: outcome.type, subject: row.id, tenantId: row.tenantId, data });
    await tx.insert(RequestTransitionEntity, {
      id: randomUUID(),
      tenantId: row.tenantId,
      requestId: row.id,
      action,
      fromStatus: from,
      toStatus: to,
      actor: principal.id,
      occurredAt: now,
      details: outcome.details ?? {},
      eventId: event.id,
    });
    row.lastEventId = event.id;
  }

  /** Ends the clock's pause if it is one for `reason`; true when it did. */
  private async resumeIfPausedFor(tx: EntityManager, row: RequestEntity, principal: Principal, reason: 'clarification' | 'verification', at: Date): Promise<boolean> {
    const state = await this.legalClock.stateOf(tx, row);
    if (!state.paused || state.reason !== reason) return false;
    await this.legalClock.resumeLocked(tx, row, principal, { at, note: null });
    return true;
  }
}

/** One address of no white space or angle brackets, with exactly one `@` (a linear check: the classes exclude the `@`). */
const ONE_ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

/**
 * Whether the notifier has an address to write to the data subject at: the requestor's email, else an intake contact
 * that is a bare email address (`local@domain.tld`, as the notifier takes one).
 */
export function emailKnownOf(row: Pick<RequestEntity, 'requestor' | 'intakeSource'>): boolean {
  if (row.requestor?.email) return true;
  const contact = row.intakeSource?.contact?.trim() ?? '';
  return ONE_ADDRESS.test(contact) && contact.slice(contact.indexOf('@') + 2, -1).includes('.');
}

/** The authority evidence a review acts on; the state machine only allows a review of submitted evidence. */
function submittedAuthority(row: RequestEntity): NonNullable<RequestEntity['authority']> {
  if (!row.authority) throw new Error(`request ${row.id} has no authority evidence to review`);
  return row.authority;
}

/** What the default refusal notice says of the request's law: its pinned pack's name for the jurisdiction, and whether it has an appeal. */
function refusalNoticeContext(row: RequestEntity, pack: PolicyPack): RefusalNoticeContext {
  const binding = bindingIn(pack, row.jurisdiction);
  return { jurisdictionName: binding?.name ?? row.jurisdiction, appealAvailable: pack.appeal != null };
}
