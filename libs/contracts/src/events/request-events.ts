import { z } from 'zod';
import { timestamp } from '../http/fields';
import type { EventTypeDefinition } from './event-catalog';
import { CLOCK_MODES, REQUEST_TYPES, TRIAGE_REASONS } from '../http/requests';
import { PAUSE_REASONS, PAUSE_RULES } from '../policy/policy-pack';
import { Topics } from './topics';

/**
 * Facts about the request aggregate, owned by lifecycle-clock. Payloads carry
 * identifiers and facts; personal data stays in the owning service.
 */
export const requestCreatedV1 = z.object({
  requestId: z.uuid(),
  tenantId: z.string().min(1),
  workspaceId: z.string().min(1).nullable(),
  jurisdiction: z.string().min(2),
  /** null: the request is in triage (`triageReason`) until an operator corrects the type (dsar.request.corrected.v1). */
  requestType: z.enum(REQUEST_TYPES).nullable(),
  requestTypeInferred: z.boolean(),
  /** Every right the letter asks for, the primary (or suggested) one first. Absent on events from before. */
  requestedRights: z.array(z.enum(REQUEST_TYPES)).optional(),
  /** Why the request is in triage; null (or absent, on events from before) when it has a type. */
  triageReason: z.enum(TRIAGE_REASONS).nullable().optional(),
  status: z.literal('received'),
  /** When the service recorded the request. */
  receivedAt: timestamp,
  /** When the original channel received it: the provenance time the clock counts from. */
  intakeReceivedAt: timestamp,
  dueAt: timestamp,
  clockMode: z.enum(CLOCK_MODES),
  policyPack: z.string().min(1),
  policyVersion: z.string().min(1),
  /** Why that pack version: in force on the day of receipt, or a custom pack activated for the tenant or workspace. */
  policyBasis: z.string().min(1).optional(),
  channel: z.string().min(1),
  requestorType: z.string().nullable(),
});
export type RequestCreatedV1 = z.infer<typeof requestCreatedV1>;

/** Every instant of an event: the contracts' one timestamp type (http/fields.ts). */
const instant = timestamp;

/** Which request an event is about, and whose: every request event starts with these. */
export const requestSubject = {
  requestId: z.uuid(),
  tenantId: z.string().min(1),
  workspaceId: z.string().min(1).nullable(),
};

/** Identifies the request and the rules its clock runs on; every clock event carries it. */
const clockSubject = {
  ...requestSubject,
  jurisdiction: z.string().min(2),
  policyPack: z.string().min(1),
  policyVersion: z.string().min(1),
  /** The principal that acted. */
  actor: z.string().min(1),
};

/**
 * The deadline was extended. The requester must be told, with the reasons,
 * by `noticeDueAt`; notifier sends that notice from this event.
 */
export const deadlineExtendedV1 = z.object({
  ...clockSubject,
  /** Days requested, or for a month extension the calendar days it added. */
  additionalDays: z.number().int(),
  additionalMonths: z.number().int().nullable(),
  justification: z.string().min(1),
  /** The reasons for the delay, as the requester is to be told them. */
  reason: z.string().nullable(),
  notifiedAt: instant,
  noticeDueAt: instant,
  previousDueAt: instant,
  dueAt: instant,
});
export type DeadlineExtendedV1 = z.infer<typeof deadlineExtendedV1>;

export const clockPausedV1 = z.object({
  ...clockSubject,
  reason: z.enum(PAUSE_REASONS),
  /** What the pack does with a pause for this reason. */
  rule: z.enum(PAUSE_RULES),
  pausedAt: instant,
  /** The earliest the deadline can be while paused (the pause's effect applies when it ends). */
  dueAt: instant,
});
export type ClockPausedV1 = z.infer<typeof clockPausedV1>;

export const clockResumedV1 = z.object({
  ...clockSubject,
  reason: z.enum(PAUSE_REASONS),
  rule: z.enum(PAUSE_RULES),
  effect: z.enum(['suspended', 'restarted', 'ignored', 'after_deadline']),
  pausedAt: instant,
  resumedAt: instant,
  /** Local days that did not count (suspension). */
  excludedDays: z.number().int().nonnegative(),
  previousDueAt: instant,
  dueAt: instant,
});
export type ClockResumedV1 = z.infer<typeof clockResumedV1>;

/**
 * An applied upgrade proposal moved an open request to a newer version of its
 * pack: its clock was recomputed on the new rules from receipt, with every
 * pause and extension it had. `shortened` says when the new due date is
 * earlier than the one it replaces.
 */
export const policyRepinnedV1 = z.object({
  ...clockSubject,
  fromVersion: z.string().min(1),
  proposalId: z.uuid(),
  previousDueAt: instant,
  dueAt: instant,
  shortened: z.boolean(),
});
export type PolicyRepinnedV1 = z.infer<typeof policyRepinnedV1>;

export const RequestEventTypes = {
  created: 'dsar.request.created.v1',
  deadlineExtended: 'dsar.request.deadline_extended.v1',
  clockPaused: 'dsar.request.clock_paused.v1',
  clockResumed: 'dsar.request.clock_resumed.v1',
  policyRepinned: 'dsar.request.policy_repinned.v1',
} as const;

export const requestEventDefinitions: EventTypeDefinition[] = [
  {
    type: RequestEventTypes.created,
    topic: Topics.request,
    schema: requestCreatedV1,
    producer: 'lifecycle-clock',
    description: 'A data subject request was recorded and its legal clock started.',
  },
  {
    type: RequestEventTypes.deadlineExtended,
    topic: Topics.request,
    schema: deadlineExtendedV1,
    producer: 'lifecycle-clock',
    description: 'The response deadline was extended; the requester must be told, with the reasons, by noticeDueAt.',
    personalData: ['reason'],
  },
  {
    type: RequestEventTypes.clockPaused,
    topic: Topics.request,
    schema: clockPausedV1,
    producer: 'lifecycle-clock',
    description: 'The legal clock was paused (identity verification, clarification or a fee); rule says what the pause does.',
  },
  {
    type: RequestEventTypes.clockResumed,
    topic: Topics.request,
    schema: clockResumedV1,
    producer: 'lifecycle-clock',
    description: 'A pause of the legal clock ended; effect and dueAt say how it moved the deadline.',
  },
  {
    type: RequestEventTypes.policyRepinned,
    topic: Topics.request,
    schema: policyRepinnedV1,
    producer: 'lifecycle-clock',
    description: 'An applied upgrade proposal re-pinned an open request to a newer pack version; its clock was recomputed (shortened says whether the deadline moved earlier).',
  },
];
