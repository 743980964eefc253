import { z } from 'zod';
import { text, timestamp } from './fields';
import { LIFECYCLE_ACTIONS } from './lifecycle-actions';
import { INTAKE_CHANNELS, intakePayload, REQUEST_STATUSES, REQUEST_TYPES, requestor, authority } from './requests';

/**
 * HTTP contracts of the request workflow: the commands that move a request
 * through its statuses, their common answer, and appeals. The state machine
 * behind them is in lifecycle-clock; docs/lifecycle.md draws it.
 */

export { LIFECYCLE_ACTIONS, type LifecycleAction } from './lifecycle-actions';

/** Why a request was refused (docs/lifecycle.md explains each and where the law allows it). */
export const REFUSAL_REASONS = ['manifestly_unfounded', 'excessive', 'identity_not_verified', 'no_data_held', 'exemption_applies', 'outside_jurisdiction', 'duplicate', 'other'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Why a request was closed. An open request closed without a reason was withdrawn; a finished one is `completed`. */
export const CLOSURE_REASONS = ['withdrawn', 'completed', 'duplicate', 'requester_unresponsive', 'transferred', 'other'] as const;
export type ClosureReason = (typeof CLOSURE_REASONS)[number];

/** Channels the service can reach a requester on: the intake channels. */
const channel = z.enum(INTAKE_CHANNELS).describe("How the requester was (or is to be) told; default the request's intake channel");

export const acknowledgementCommand = z
  .strictObject({
    channel: channel.optional(),
    message: text(10_000).optional().describe('The acknowledgement as sent to the requester'),
  })
  .meta({ id: 'AcknowledgementCommand' });
export type AcknowledgementCommand = z.infer<typeof acknowledgementCommand>;

export const clarificationRequestCommand = z
  .strictObject({
    message: text(10_000).describe('What the requester is asked to clarify, as sent to them'),
    channel: channel.optional(),
  })
  .meta({ id: 'ClarificationRequestCommand' });
export type ClarificationRequestCommand = z.infer<typeof clarificationRequestCommand>;

export const clarificationReceiveCommand = z
  .strictObject({
    message: text(100_000).optional().describe("The requester's answer"),
    receivedAt: timestamp.optional().describe('When the answer arrived; default now; the clock resumes then. Not in the future, not before the clarification was asked for'),
  })
  .meta({ id: 'ClarificationReceiveCommand' });
export type ClarificationReceiveCommand = z.infer<typeof clarificationReceiveCommand>;

/** The reason of a refusal that names none. */
export const DEFAULT_REFUSAL_REASON: RefusalReason = 'other';

export const refusalCommand = z
  .strictObject({
    reason: z.enum(REFUSAL_REASONS).default(DEFAULT_REFUSAL_REASON).describe('Why the request is refused (docs/lifecycle.md); default `other`'),
    message: text(10_000)
      .optional()
      .describe('The refusal as the requester is told it; default a notice built from the reason that names the right to complain to the supervisory authority and to a court (docs/lifecycle.md)'),
    rationale: text(10_000).optional().describe("The controller's internal rationale, kept for the record and a regulator"),
  })
  .meta({ id: 'RefusalCommand', description: 'Every field is optional: `{}` refuses with reason `other` and the default notice.' });
export type RefusalCommand = z.infer<typeof refusalCommand>;

export const closureCommand = z
  .strictObject({
    reason: z.enum(CLOSURE_REASONS).optional().describe('Default `withdrawn` for an open request, `completed` for a fulfilled or refused one'),
    message: text(10_000).optional(),
  })
  .meta({ id: 'ClosureCommand' });
export type ClosureCommand = z.infer<typeof closureCommand>;

/** `PUT /requests/:id/requestor`: the new snapshot, replacing the old one whole. */
export const requestorCommand = requestor;
export type RequestorCommand = z.infer<typeof requestorCommand>;

/** `POST /requests/:id/corrections`: the request type and/or jurisdiction intake misread, and why. */
export const correctionCommand = z
  .strictObject({
    requestType: z.enum(REQUEST_TYPES).optional().describe("The request's right as it should have been read; default unchanged. Naming the type of a request in triage takes it out of triage"),
    jurisdiction: intakePayload.shape.jurisdiction
      .optional()
      .describe('The jurisdiction whose law applies, as intake takes it (case-insensitive; `GET /policies` lists them); default unchanged. A code no pack covers is a 422 `JURISDICTION_UNSUPPORTED`'),
    reason: text(2000).describe('Why the request is corrected: kept on the clock explanation, and as a salted hash on the audit chain'),
  })
  .meta({
    id: 'CorrectionCommand',
    description: 'At least one of `requestType` and `jurisdiction`, different from what the request has: a correction that changes nothing is a 422 `CORRECTION_CHANGES_NOTHING`.',
  });
export type CorrectionCommand = z.infer<typeof correctionCommand>;

export const correctionResult = z
  .object({
    id: z.uuid(),
    status: z.enum(REQUEST_STATUSES),
    requestType: z.enum(REQUEST_TYPES).nullable().describe('null: still in triage (a correction of the jurisdiction alone)'),
    jurisdiction: z.string(),
    policyPack: z.string(),
    policyVersion: z.string(),
    previousDueAt: timestamp,
    dueAt: timestamp.describe('Recomputed from the same receipt on the corrected facts, with every pause and extension'),
  })
  .meta({ id: 'CorrectionResult' });
export type CorrectionResult = z.infer<typeof correctionResult>;

/** `POST /requests/:id/duplicate-resolution`: what an operator decides of a request marked as a duplicate (docs/identity.md#duplicates). */
const duplicateReason = text(2000).describe("Why: kept on the request's step, and as a salted hash on the audit chain");
export const duplicateResolutionCommand = z
  .discriminatedUnion('resolution', [
    z.strictObject({
      resolution: z
        .literal('confirmed')
        .describe('The same request as the one it repeats: it is refused with reason `duplicate`, and the person is told (the refusal notice names the earlier request)'),
      reason: duplicateReason,
      message: text(10_000)
        .optional()
        .describe('The notice as the person is told it; default one that names the earlier request, the reason and the right to complain (as a refusal without a message)'),
    }),
    z.strictObject({
      resolution: z.literal('separated').describe('A request of its own, worked on as any other; nothing is sent to the person'),
      reason: duplicateReason,
    }),
  ])
  .meta({ id: 'DuplicateResolutionCommand' });
export type DuplicateResolutionCommand = z.infer<typeof duplicateResolutionCommand>;

/** `POST /requests/:id/authority/submit`: evidence that the requestor may act for the data subject. */
export const authoritySubmitCommand = authority;
export type AuthoritySubmitCommand = z.infer<typeof authoritySubmitCommand>;

export const authorityApproveCommand = z.strictObject({ note: text(2000).optional() }).meta({ id: 'AuthorityApproveCommand' });
export type AuthorityApproveCommand = z.infer<typeof authorityApproveCommand>;

export const authorityRejectCommand = z.strictObject({ reason: text(2000).optional().describe('Why the evidence does not show authority') }).meta({ id: 'AuthorityRejectCommand' });
export type AuthorityRejectCommand = z.infer<typeof authorityRejectCommand>;

/** What the verification service tells lifecycle-clock (internal API). */
export const verificationTransitionCommand = z.strictObject({
  /** Whether the legal clock pauses while identity is checked (the verification case's `pauseClock`); default true. */
  pauseClock: z.boolean().optional(),
  at: timestamp.optional(),
});
export type VerificationTransitionCommand = z.infer<typeof verificationTransitionCommand>;

/** The spec's lifecycle response. */
export const lifecycleResult = z
  .object({
    id: z.uuid(),
    status: z.enum(REQUEST_STATUSES),
    dueAt: timestamp,
  })
  .meta({ id: 'LifecycleResult' });
export type LifecycleResult = z.infer<typeof lifecycleResult>;

/**
 * One step of a request's workflow as lifecycle-clock recorded it, looked up by
 * the domain event it emitted (internal API, `GET /internal/v1/requests/:id/transitions/:eventId`):
 * what the operator said with it, for the services that tell the requester (the notifier).
 * Not a public route: the words are personal data and stay with the owner of the request.
 */
export const transitionRecord = z
  .object({
    eventId: z.uuid().describe('The domain event the step emitted'),
    action: z.enum(LIFECYCLE_ACTIONS),
    fromStatus: z.enum(REQUEST_STATUSES),
    toStatus: z.enum(REQUEST_STATUSES),
    actor: z.string().describe('The principal that ran the step'),
    occurredAt: timestamp,
    details: z
      .record(z.string(), z.union([z.string(), z.boolean(), z.null()]))
      .describe("The command's words and choices, by action (docs/lifecycle.md): `message`, `channel`, `reason`, `rationale`, `explanation`, …"),
  })
  .meta({ id: 'TransitionRecord' });
export type TransitionRecord = z.infer<typeof transitionRecord>;
