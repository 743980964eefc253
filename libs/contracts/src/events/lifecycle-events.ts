import { z } from 'zod';
import { timestamp } from '../http/fields';
import type { EventTypeDefinition } from './event-catalog';
import { APPEAL_DECISIONS } from '../http/appeals';
import { CLOSURE_REASONS, LIFECYCLE_ACTIONS, REFUSAL_REASONS } from '../http/lifecycle';
import { DUPLICATE_RESOLUTIONS, IDENTITY_KINDS } from '../http/identity-kinds';
import { AUTHORITY_STATUSES, INTAKE_CHANNELS, REQUEST_STATUSES, REQUEST_TYPES, REQUESTOR_TYPES } from '../http/requests';
import { REQUESTOR_IDENTITY_FIELDS } from '../http/requestor-reveal';
import { requestSubject } from './request-events';
import { Topics } from './topics';

/**
 * Facts of the request workflow, owned by lifecycle-clock: one event per
 * status change or record change, so the timeline and the audit chain show
 * every step. Messages and rationales stay in lifecycle-clock (they may hold
 * personal data); events say that they exist, not what they say.
 */
/** Every instant of an event: the contracts' one timestamp type (http/fields.ts). */
const instant = timestamp;

/** Every workflow event carries the request, the move and the deadline after it. */
const transition = {
  ...requestSubject,
  /** The principal that acted (`system` for the deadline monitor). */
  actor: z.string().min(1),
  action: z.enum(LIFECYCLE_ACTIONS),
  fromStatus: z.enum(REQUEST_STATUSES),
  status: z.enum(REQUEST_STATUSES),
  occurredAt: instant,
  dueAt: instant,
};

export const requestAcknowledgedV1 = z.object({
  ...transition,
  channel: z.enum(INTAKE_CHANNELS),
  /** The pack's acknowledgement deadline, where it has one. */
  acknowledgementDueAt: instant.nullable(),
  hasMessage: z.boolean(),
});
export type RequestAcknowledgedV1 = z.infer<typeof requestAcknowledgedV1>;

export const clarificationRequestedV1 = z.object({
  ...transition,
  channel: z.enum(INTAKE_CHANNELS),
  /** True when the clarification paused the legal clock (see dsar.request.clock_paused.v1 for the rule). */
  clockPaused: z.boolean(),
});
export type ClarificationRequestedV1 = z.infer<typeof clarificationRequestedV1>;

export const clarificationReceivedV1 = z.object({
  ...transition,
  receivedAt: instant,
  clockResumed: z.boolean(),
  hasMessage: z.boolean(),
});
export type ClarificationReceivedV1 = z.infer<typeof clarificationReceivedV1>;

export const verificationRequestedV1 = z.object({ ...transition, clockPaused: z.boolean() });
export type VerificationRequestedV1 = z.infer<typeof verificationRequestedV1>;

export const requestVerifiedV1 = z.object({ ...transition, clockResumed: z.boolean() });
export type RequestVerifiedV1 = z.infer<typeof requestVerifiedV1>;

export const requestRefusedV1 = z.object({
  ...transition,
  reason: z.enum(REFUSAL_REASONS),
  /** Whether the request's pinned pack gives an appeal to the controller (the refusal email offers one by reply only then). Absent on events from before. */
  appealAvailable: z.boolean().optional(),
});
export type RequestRefusedV1 = z.infer<typeof requestRefusedV1>;

export const requestFulfilledV1 = z.object({ ...transition });
export type RequestFulfilledV1 = z.infer<typeof requestFulfilledV1>;

export const requestClosedV1 = z.object({ ...transition, reason: z.enum(CLOSURE_REASONS) });
export type RequestClosedV1 = z.infer<typeof requestClosedV1>;

export const requestReopenedV1 = z.object({ ...transition, appealId: z.uuid(), previousDueAt: instant });
export type RequestReopenedV1 = z.infer<typeof requestReopenedV1>;

export const requestorReplacedV1 = z.object({
  ...transition,
  requestorType: z.enum(REQUESTOR_TYPES),
  previousRequestorType: z.enum(REQUESTOR_TYPES).nullable(),
  /**
   * Whether the request has an email address for the data subject after the change (the requestor's `email`, or an
   * intake `contact` that is an email address): a notification that failed for want of one is sent again. Absent on
   * events from before.
   */
  emailKnown: z.boolean().optional(),
});
export type RequestorReplacedV1 = z.infer<typeof requestorReplacedV1>;

/**
 * Someone read the requestor's identities in clear (`POST /requests/:id/requestor/reveal`), with a reason: who, why,
 * and which identities the request had to show, never their values. Not a workflow step: the status does not change.
 */
export const requestorRevealedV1 = z.object({
  ...requestSubject,
  /** The principal that asked for the reveal. */
  actor: z.string().min(1),
  /** Why, in the caller's words (kept as a salted hash on the audit chain). */
  reason: z.string().min(1),
  /** The identities shown (`name`, `email`, `phone`, `contact`, `account_id`); empty when the request had none. */
  fields: z.array(z.enum(REQUESTOR_IDENTITY_FIELDS)),
  revealedAt: instant,
});
export type RequestorRevealedV1 = z.infer<typeof requestorRevealedV1>;

export const requestCorrectedV1 = z.object({
  ...transition,
  /** The request type and jurisdiction after the correction (`jurisdiction`) and before it; a type is null while the request is in triage. */
  requestType: z.enum(REQUEST_TYPES).nullable(),
  previousRequestType: z.enum(REQUEST_TYPES).nullable(),
  jurisdiction: z.string().min(2),
  previousJurisdiction: z.string().min(2),
  /** The pack version the corrected request is pinned to, and the one it had. */
  policyPack: z.string().min(1),
  policyVersion: z.string().min(1),
  previousPolicyPack: z.string().min(1),
  previousPolicyVersion: z.string().min(1),
  /** The deadline before the correction; `dueAt` is the one recomputed from the same receipt. */
  previousDueAt: instant,
  /** Why, in the operator's words (kept as a salted hash on the audit chain). */
  reason: z.string().min(1),
});
export type RequestCorrectedV1 = z.infer<typeof requestCorrectedV1>;

/**
 * Intake found an open request of the same person (a shared identity of the blind index), type and jurisdiction,
 * received within the window: the new request is marked as its duplicate, for an operator to decide. No identity
 * and no digest of one: the kinds that matched, and how many requests carry these identities.
 */
export const duplicateMarkedV1 = z.object({
  ...requestSubject,
  /** The request it repeats: the earliest open one of its group, verified ones first. */
  duplicateOf: z.uuid(),
  matchedKinds: z.array(z.enum(IDENTITY_KINDS)).min(1),
  /** The window of the check, in days. */
  windowDays: z.number().int().positive(),
  /** How many requests of the tenant (this one included) carry any of its identities, received in the window up to it. */
  sameIdentityRequests: z.number().int().positive(),
  markedAt: instant,
});
export type DuplicateMarkedV1 = z.infer<typeof duplicateMarkedV1>;

/** An operator decided a duplicate mark: `confirmed` (the request is refused as a duplicate, in the same step) or `separated`. */
export const duplicateResolvedV1 = z.object({
  ...transition,
  duplicateOf: z.uuid(),
  resolution: z.enum(DUPLICATE_RESOLUTIONS),
  /** Why, in the operator's words (kept as a salted hash on the audit chain). */
  reason: z.string().min(1),
});
export type DuplicateResolvedV1 = z.infer<typeof duplicateResolvedV1>;

export const authoritySubmittedV1 = z.object({
  ...transition,
  authorityStatus: z.enum(AUTHORITY_STATUSES),
  evidenceCount: z.number().int().nonnegative(),
});
export type AuthoritySubmittedV1 = z.infer<typeof authoritySubmittedV1>;

export const authorityReviewedV1 = z.object({
  ...transition,
  authorityStatus: z.enum(['verified', 'rejected']),
  hasReason: z.boolean(),
});
export type AuthorityReviewedV1 = z.infer<typeof authorityReviewedV1>;

export const appealSubmittedV1 = z.object({
  ...transition,
  appealId: z.uuid(),
  appealDueAt: instant,
  /** How the appeal came in: `api` (`POST /requests/{id}/appeals`), `email` (a reply to the refusal, docs/webhooks.md#appeals-by-reply). Absent on events from before. */
  channel: z.enum(INTAKE_CHANNELS).optional(),
});
export type AppealSubmittedV1 = z.infer<typeof appealSubmittedV1>;

export const appealDecidedV1 = z.object({
  ...transition,
  appealId: z.uuid(),
  decision: z.enum(APPEAL_DECISIONS),
  /** True when the decision reopened the request (see dsar.request.reopened.v1). */
  reopened: z.boolean(),
});
export type AppealDecidedV1 = z.infer<typeof appealDecidedV1>;

/** The deadline monitor's facts: which deadline, how far off, for an open request. */
const deadlineFacts = {
  ...requestSubject,
  status: z.enum(REQUEST_STATUSES),
  /** `response`: the request's dueAt; `acknowledgement`: the pack's acknowledgement deadline. */
  deadline: z.enum(['response', 'acknowledgement']),
  dueAt: instant,
  detectedAt: instant,
};

export const deadlineApproachingV1 = z.object({
  ...deadlineFacts,
  /** The configured warning threshold that was crossed, in days before dueAt. */
  thresholdDays: z.number().int().positive(),
});
export type DeadlineApproachingV1 = z.infer<typeof deadlineApproachingV1>;

export const deadlineBreachedV1 = z.object({ ...deadlineFacts });
export type DeadlineBreachedV1 = z.infer<typeof deadlineBreachedV1>;

export const LifecycleEventTypes = {
  acknowledged: 'dsar.request.acknowledged.v1',
  clarificationRequested: 'dsar.request.clarification_requested.v1',
  clarificationReceived: 'dsar.request.clarification_received.v1',
  verificationRequested: 'dsar.request.verification_requested.v1',
  verified: 'dsar.request.verified.v1',
  refused: 'dsar.request.refused.v1',
  fulfilled: 'dsar.request.fulfilled.v1',
  closed: 'dsar.request.closed.v1',
  reopened: 'dsar.request.reopened.v1',
  requestorReplaced: 'dsar.request.requestor_replaced.v1',
  requestorRevealed: 'dsar.request.requestor_revealed.v1',
  corrected: 'dsar.request.corrected.v1',
  duplicateMarked: 'dsar.request.duplicate_marked.v1',
  duplicateResolved: 'dsar.request.duplicate_resolved.v1',
  authoritySubmitted: 'dsar.request.authority_submitted.v1',
  authorityApproved: 'dsar.request.authority_approved.v1',
  authorityRejected: 'dsar.request.authority_rejected.v1',
  appealSubmitted: 'dsar.request.appeal_submitted.v1',
  appealDecided: 'dsar.request.appeal_decided.v1',
  deadlineApproaching: 'dsar.request.deadline_approaching.v1',
  deadlineBreached: 'dsar.request.deadline_breached.v1',
} as const;

const define = (type: string, schema: z.ZodType, description: string): EventTypeDefinition => ({ type, topic: Topics.request, schema, producer: 'lifecycle-clock', description });

export const lifecycleEventDefinitions: EventTypeDefinition[] = [
  define(LifecycleEventTypes.acknowledged, requestAcknowledgedV1, 'The requester was told that the request was received; a received request is now in progress.'),
  define(LifecycleEventTypes.clarificationRequested, clarificationRequestedV1, 'The requester was asked to clarify the request; the clock pauses as the pack says.'),
  define(LifecycleEventTypes.clarificationReceived, clarificationReceivedV1, "The requester's clarification arrived; the request is in progress again and the clock resumed."),
  define(LifecycleEventTypes.verificationRequested, verificationRequestedV1, 'Identity verification was started; the request waits for it (verification_pending).'),
  define(LifecycleEventTypes.verified, requestVerifiedV1, 'Identity verification was approved; the request is in progress and the clock resumed.'),
  define(LifecycleEventTypes.refused, requestRefusedV1, 'The request was refused, with one of the documented reasons (identity_not_verified when verification failed).'),
  define(LifecycleEventTypes.fulfilled, requestFulfilledV1, 'The request was fulfilled; the requester is to be told.'),
  define(LifecycleEventTypes.closed, requestClosedV1, 'The request was closed (withdrawn when it was still open).'),
  define(LifecycleEventTypes.reopened, requestReopenedV1, "An approved appeal reopened the request; dueAt is the appeal clock's deadline."),
  define(LifecycleEventTypes.requestorReplaced, requestorReplacedV1, 'The requestor snapshot was replaced (the new details stay in lifecycle-clock).'),
  {
    ...define(
      LifecycleEventTypes.requestorRevealed,
      requestorRevealedV1,
      "Someone read the requestor's identities in clear, with a reason (`POST /requests/{id}/requestor/reveal`): who, why and which identities, never their values; the status does not change.",
    ),
    personalData: ['reason'],
  },
  {
    ...define(
      LifecycleEventTypes.corrected,
      requestCorrectedV1,
      'An operator corrected the request type or jurisdiction intake misread, with a reason; the clock was recomputed from the same receipt on the corrected facts (and the pack version in force on the day of receipt for the corrected jurisdiction).',
    ),
    personalData: ['reason'],
  },
  define(
    LifecycleEventTypes.duplicateMarked,
    duplicateMarkedV1,
    'Intake marked the request as a duplicate of an open request of the same person (a shared identity), type and jurisdiction received within the window (docs/identity.md#duplicates); it stays open for an operator to decide.',
  ),
  {
    ...define(
      LifecycleEventTypes.duplicateResolved,
      duplicateResolvedV1,
      'An operator decided a duplicate mark, with a reason: `confirmed` (the request is refused as a duplicate in the same step, dsar.request.refused.v1) or `separated` (a request of its own).',
    ),
    personalData: ['reason'],
  },
  define(LifecycleEventTypes.authoritySubmitted, authoritySubmittedV1, "Evidence of the requestor's authority to act for the data subject was submitted."),
  define(LifecycleEventTypes.authorityApproved, authorityReviewedV1, 'Submitted authority evidence was approved (authority verified).'),
  define(LifecycleEventTypes.authorityRejected, authorityReviewedV1, 'Submitted authority evidence was rejected.'),
  define(LifecycleEventTypes.appealSubmitted, appealSubmittedV1, 'The requester appealed the outcome; appealDueAt is when it must be decided.'),
  define(LifecycleEventTypes.appealDecided, appealDecidedV1, 'An appeal was decided; approve and partial reopen the request.'),
  define(
    LifecycleEventTypes.deadlineApproaching,
    deadlineApproachingV1,
    "An open request's response or acknowledgement deadline is within a warning threshold (default 7 and 2 days). Once per request, deadline, threshold and due date.",
  ),
  define(LifecycleEventTypes.deadlineBreached, deadlineBreachedV1, "An open request's response or acknowledgement deadline passed without it being met. Once per request, deadline and due date."),
];
