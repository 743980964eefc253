import { z } from 'zod';
import { timestamp } from '../http/fields';
import { VERIFICATION_LEVELS, VERIFICATION_METHODS, VERIFICATION_REJECTION_REASONS } from '../http/verification';
import type { EventTypeDefinition } from './event-catalog';
import { requestSubject } from './request-events';
import { Topics } from './topics';

/**
 * Facts of identity verification, owned by the verification service. Every
 * event is keyed by its request, so it lands on the request's timeline and
 * audit chain. Filenames, notes, messages and reasons for doubt stay in the
 * verification service; events say that they exist, not what they say.
 */
const caseFacts = {
  ...requestSubject,
  caseId: z.uuid(),
  /** The principal that acted (`system:verification` for reminders and expiry). */
  actor: z.string().min(1),
  occurredAt: timestamp,
};

export const verificationRequestedCaseV1 = z.object({
  ...caseFacts,
  level: z.enum(VERIFICATION_LEVELS),
  method: z.enum(VERIFICATION_METHODS),
  methodsAllowed: z.array(z.enum(VERIFICATION_METHODS)),
  pauseClock: z.boolean(),
  hasReasonForDoubt: z.boolean(),
  reminderDays: z.array(z.number().int().positive()),
  expiresAt: timestamp.nullable(),
});
export type VerificationRequestedCaseV1 = z.infer<typeof verificationRequestedCaseV1>;

export const verificationEvidenceReceivedV1 = z.object({
  ...caseFacts,
  caseId: z.uuid().nullable(),
  evidenceId: z.uuid(),
  level: z.enum(VERIFICATION_LEVELS),
  artifactCount: z.number().int().nonnegative(),
  /** The uploaded file, when the evidence is one upload: its key, size, hash and media type. */
  upload: z.object({ artifactKey: z.string(), size: z.number().int().nonnegative(), sha256: z.string(), contentType: z.string() }).nullable(),
});
export type VerificationEvidenceReceivedV1 = z.infer<typeof verificationEvidenceReceivedV1>;

export const verificationApprovedV1 = z.object({ ...caseFacts, method: z.enum(VERIFICATION_METHODS), hasNote: z.boolean() });
export type VerificationApprovedV1 = z.infer<typeof verificationApprovedV1>;

export const verificationRejectedV1 = z.object({ ...caseFacts, reason: z.enum(VERIFICATION_REJECTION_REASONS), hasMessage: z.boolean() });
export type VerificationRejectedV1 = z.infer<typeof verificationRejectedV1>;

export const verificationReminderDueV1 = z.object({
  ...caseFacts,
  /** Which reminder: days after the case opened. */
  day: z.number().int().positive(),
  requestedAt: timestamp,
  expiresAt: timestamp.nullable(),
});
export type VerificationReminderDueV1 = z.infer<typeof verificationReminderDueV1>;

export const verificationExpiredV1 = z.object({ ...caseFacts, requestedAt: timestamp, expiresAt: timestamp });
export type VerificationExpiredV1 = z.infer<typeof verificationExpiredV1>;

/** The case ended without a decision because the request left verification another way (closed, refused). */
export const verificationCancelledV1 = z.object({ ...caseFacts, requestStatus: z.string().min(1) });
export type VerificationCancelledV1 = z.infer<typeof verificationCancelledV1>;

export const verificationEvidencePurgedV1 = z.object({
  ...caseFacts,
  caseId: z.uuid().nullable(),
  artifactKeys: z.array(z.string()),
});
export type VerificationEvidencePurgedV1 = z.infer<typeof verificationEvidencePurgedV1>;

export const VerificationEventTypes = {
  requested: 'dsar.verification.requested.v1',
  evidenceReceived: 'dsar.verification.evidence_received.v1',
  approved: 'dsar.verification.approved.v1',
  rejected: 'dsar.verification.rejected.v1',
  reminderDue: 'dsar.verification.reminder_due.v1',
  expired: 'dsar.verification.expired.v1',
  cancelled: 'dsar.verification.cancelled.v1',
  evidencePurged: 'dsar.verification.evidence_purged.v1',
} as const;

const define = (type: string, schema: z.ZodType, description: string): EventTypeDefinition => ({ type, topic: Topics.verification, schema, producer: 'verification', description });

export const verificationEventDefinitions: EventTypeDefinition[] = [
  define(VerificationEventTypes.requested, verificationRequestedCaseV1, 'A verification case was opened: level, methods, whether the clock pauses, the reminder days and the expiry.'),
  define(
    VerificationEventTypes.evidenceReceived,
    verificationEvidenceReceivedV1,
    'Identity evidence was received (an uploaded file, or references to evidence held elsewhere); its bytes stay in encrypted storage.',
  ),
  define(VerificationEventTypes.approved, verificationApprovedV1, 'Identity was verified; the request is in progress again.'),
  define(VerificationEventTypes.rejected, verificationRejectedV1, 'Identity could not be verified; the request is refused with identity_not_verified.'),
  define(VerificationEventTypes.reminderDue, verificationReminderDueV1, 'A case is still pending on one of its reminder days: the person is to be reminded. Once per case and day.'),
  define(VerificationEventTypes.expired, verificationExpiredV1, 'A case stayed pending past its expiry: the request is refused with identity_not_verified. Once per case.'),
  define(VerificationEventTypes.cancelled, verificationCancelledV1, 'A pending case ended because the request was closed or refused another way; no reminder follows.'),
  define(VerificationEventTypes.evidencePurged, verificationEvidencePurgedV1, 'Evidence files of a request were deleted (retention class verification_evidence).'),
];
