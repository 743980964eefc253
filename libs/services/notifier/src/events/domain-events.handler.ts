import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import {
  type AppealDecidedV1,
  type AppealSubmittedV1,
  type CloudEventEnvelope,
  type DeadlineApproachingV1,
  type DeadlineBreachedV1,
  type DeadlineExtendedV1,
  type DuplicateMarkedV1,
  type InboundMessageCapturedV1,
  IntakeEventTypes,
  DeliveryEventTypes,
  LifecycleEventTypes,
  type NotificationAudience,
  type NotificationKind,
  type RequestCreatedV1,
  RequestEventTypes,
  type RequestorReplacedV1,
  type RequestRefusedV1,
  TaskEventTypes,
  type TaskOverdueV1,
  type TaskRequestedV1,
  type VerificationExpiredV1,
  type VerificationReminderDueV1,
  type VerificationRequestedCaseV1,
  VerificationEventTypes,
  type deliveryPreparedV1,
} from '@dsar/contracts';
import type { z } from 'zod';
import { UnitOfWork } from '@dsar/platform/persistence';
import { NotificationHistoryService } from '../application/notification-history';
import { Notifications } from '../application/notifications';
import { Dispatcher } from '../application/dispatcher';
import type { OwnerAddress } from '../infrastructure/notification.entity';

export type Mapping = {
  kind: NotificationKind;
  audience: NotificationAudience;
  facts: (data: Record<string, unknown>) => Record<string, unknown>;
  /** Only the events of the type that pass: the others notify nobody. */
  when?: (data: Record<string, unknown>) => boolean;
  /** Audience `owner`: the data system owner's address, which the event carries. */
  recipient?: (data: Record<string, unknown>) => OwnerAddress;
};

/** The facts of a task's notification: which task, system and action, and its dates; never its token or identities. */
function taskFacts(d: Record<string, unknown>): Record<string, unknown> {
  const t = d as Partial<TaskRequestedV1 & TaskOverdueV1>;
  return {
    task: {
      id: t.taskId,
      systemKey: t.systemKey,
      displayName: t.displayName,
      action: t.action,
      ...pick(t, ['mode', 'dueAt', 'legalDueAt', 'timeoutAt', 'state']),
    },
  };
}

const taskOwner = (d: Record<string, unknown>): OwnerAddress => (d as { owner: OwnerAddress }).owner;

type DeliveryPreparedV1 = z.infer<typeof deliveryPreparedV1>;

/** The facts of a delivery's notifications: how it is delivered and how much; never the link or its code. */
const deliveryFacts = (d: Record<string, unknown>): Record<string, unknown> => pick(d as DeliveryPreparedV1, ['channel', 'securityLevel', 'artifactCount']);

/**
 * Which domain event makes which notification, and the facts its template
 * gets from the event (identifiers, codes and dates; the words and the
 * address are read when it is sent). The acknowledgement of receipt goes out
 * when the request is acknowledged, with the message the operator wrote.
 */
export const NOTIFYING_EVENTS: Readonly<Record<string, Mapping | readonly Mapping[]>> = {
  [RequestEventTypes.created]: {
    kind: 'request_created',
    audience: 'operators',
    facts: (d) => pick(d as RequestCreatedV1, ['requestType', 'jurisdiction', 'dueAt', 'channel']),
  },
  [LifecycleEventTypes.acknowledged]: { kind: 'request_acknowledged', audience: 'subject', facts: (d) => pick(d, ['dueAt', 'acknowledgementDueAt', 'hasMessage']) },
  [LifecycleEventTypes.clarificationRequested]: { kind: 'clarification_requested', audience: 'subject', facts: (d) => pick(d, ['dueAt', 'clockPaused']) },
  [VerificationEventTypes.requested]: {
    kind: 'verification_requested',
    audience: 'subject',
    facts: (d) => {
      const c = d as VerificationRequestedCaseV1;
      return { methods: c.methodsAllowed, expiresAt: c.expiresAt };
    },
  },
  [VerificationEventTypes.reminderDue]: { kind: 'verification_reminder', audience: 'subject', facts: (d) => pick(d as VerificationReminderDueV1, ['day', 'expiresAt']) },
  [RequestEventTypes.deadlineExtended]: {
    kind: 'deadline_extended',
    audience: 'subject',
    facts: (d) => pick(d as DeadlineExtendedV1, ['additionalDays', 'additionalMonths', 'reason', 'previousDueAt', 'dueAt', 'noticeDueAt']),
  },
  [LifecycleEventTypes.refused]: { kind: 'request_refused', audience: 'subject', facts: (d) => pick(d as RequestRefusedV1, ['reason', 'dueAt', 'appealAvailable']) },
  [LifecycleEventTypes.fulfilled]: { kind: 'request_fulfilled', audience: 'subject', facts: (d) => pick(d, ['dueAt']) },
  // A delivery by email sends the link to the download page and, in a second message, its one-time code
  // (docs/notifications.md#delivery-by-email); both are asked for when they are written, under this event's id.
  [DeliveryEventTypes.prepared]: [
    { kind: 'delivery_prepared', audience: 'subject', facts: deliveryFacts },
    { kind: 'delivery_code', audience: 'subject', when: (d) => (d as DeliveryPreparedV1).channel === 'email', facts: deliveryFacts },
  ],
  [LifecycleEventTypes.appealSubmitted]: { kind: 'appeal_received', audience: 'subject', facts: (d) => pick(d as AppealSubmittedV1, ['appealId', 'appealDueAt']) },
  [LifecycleEventTypes.appealDecided]: { kind: 'appeal_decided', audience: 'subject', facts: (d) => pick(d as AppealDecidedV1, ['appealId', 'decision', 'reopened', 'dueAt']) },
  [LifecycleEventTypes.deadlineApproaching]: { kind: 'deadline_approaching', audience: 'operators', facts: (d) => pick(d as DeadlineApproachingV1, ['deadline', 'dueAt', 'thresholdDays', 'status']) },
  [LifecycleEventTypes.deadlineBreached]: { kind: 'deadline_breached', audience: 'operators', facts: (d) => pick(d as DeadlineBreachedV1, ['deadline', 'dueAt', 'status']) },
  // A reply to a refused request that filed an appeal, or would have from a verified sender (docs/webhooks.md#appeals-by-reply).
  [IntakeEventTypes.messageCaptured]: {
    kind: 'appeal_by_reply',
    audience: 'operators',
    when: (d) => (d as InboundMessageCapturedV1).appealId !== undefined || (d as InboundMessageCapturedV1).appealUnconfirmed === true,
    facts: (d) => pick(d as InboundMessageCapturedV1, ['appealId', 'appealDueAt', 'appealUnconfirmed']),
  },
  [VerificationEventTypes.expired]: { kind: 'verification_expired', audience: 'operators', facts: (d) => pick(d as VerificationExpiredV1, ['requestedAt', 'expiresAt']) },
  // Intake marked the request as a duplicate of an open one (docs/identity.md#duplicates): an operator decides. The
  // event names the kinds of identity that matched, never the identities.
  [LifecycleEventTypes.duplicateMarked]: {
    kind: 'duplicate_marked',
    audience: 'operators',
    facts: (d) => pick(d as DuplicateMarkedV1, ['duplicateOf', 'matchedKinds', 'windowDays', 'sameIdentityRequests', 'markedAt']),
  },
  // A task of a manual system queued for a claim (new, started after the systems it comes after, or retried by an
  // operator): its owner is the one who does the work (docs/data-systems.md#manual-systems). A claim that lapsed is
  // requeued (another event type), and tells nobody.
  [TaskEventTypes.requested]: {
    kind: 'task_assigned',
    audience: 'owner',
    // A task still waiting for the systems it comes after cannot be claimed yet: its owner is told when it is queued.
    when: (d) => (d as TaskRequestedV1).mode === 'manual' && (d as TaskRequestedV1).state === 'queued',
    facts: taskFacts,
    recipient: taskOwner,
  },
  // Past the system's due date: its owner is reminded, later operators are alerted (docs/data-systems.md#chasing).
  [TaskEventTypes.overdue]: [
    { kind: 'task_overdue', audience: 'owner', when: (d) => (d as TaskOverdueV1).stage === 'reminder', facts: taskFacts, recipient: taskOwner },
    { kind: 'task_escalated', audience: 'operators', when: (d) => (d as TaskOverdueV1).stage === 'escalation', facts: taskFacts },
  ],
};

/** The notifications an event makes: those of its type's mappings that it passes. */
export function mappingsOf(type: string, data: Record<string, unknown>): Mapping[] {
  const mappings = NOTIFYING_EVENTS[type];
  if (!mappings) return [];
  return ([] as Mapping[]).concat(mappings).filter((m) => !m.when || m.when(data));
}

function pick<T extends object>(data: T, keys: readonly string[]): Record<string, unknown> {
  const record = data as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));
}

/** Turns the domain events that concern someone into notifications, once each (the inbox and a unique cause). */
@Controller()
export class DomainEventsHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly notifications: Notifications,
    private readonly dispatcher: Dispatcher,
    private readonly history: NotificationHistoryService,
  ) {}

  /** Corrected contact details: what failed for want of an address is sent again (docs/notifications.md#sending-retries-and-replay). */
  @EventPattern(LifecycleEventTypes.requestorReplaced)
  async onRequestorReplaced(@Payload() event: CloudEventEnvelope): Promise<void> {
    const data = event.data as RequestorReplacedV1;
    if (data.emailKnown !== true) return;
    await this.history.resendForCorrectedContact(this.uow.manager, data);
  }

  @EventPattern(Object.keys(NOTIFYING_EVENTS))
  async onEvent(@Payload() event: CloudEventEnvelope): Promise<void> {
    const payload = event.data as Record<string, unknown>;
    const data = event.data as { requestId: string; tenantId: string; workspaceId: string | null };
    const tx = this.uow.manager;
    for (const mapping of mappingsOf(event.type, payload)) {
      const id = await this.notifications.record(tx, {
        tenantId: data.tenantId,
        workspaceId: data.workspaceId,
        requestId: data.requestId,
        kind: mapping.kind,
        audience: mapping.audience,
        sourceKey: event.id,
        sourceEventId: event.id,
        facts: mapping.facts(payload),
        ...(mapping.recipient ? { recipient: mapping.recipient(payload) } : {}),
      });
      // Sent as soon as the inbox transaction commits, not at the next round.
      if (id) this.dispatcher.kickAfterCommit();
    }
  }
}
