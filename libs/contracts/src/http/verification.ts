import { z } from 'zod';
import { text, timestamp } from './fields';
import type { RequestType } from './request-kinds';
import { REQUEST_STATUSES } from './requests';

/**
 * HTTP contracts of identity verification (docs/verification.md). A
 * verification case is a workflow control, not a login: `existing_auth` means
 * the host application already authenticated the person.
 */

/** How sure the controller must be of the person's identity (CCPA regs §7062: "reasonable" and "reasonably high"). */
export const VERIFICATION_LEVELS = ['reasonable', 'enhanced'] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

/**
 * How identity is established. `existing_auth`: the host application's login
 * session; `manual`: an operator compares what the person sent with what is
 * held; `document`: an identity document is checked; `account_match`: the
 * person proves control of the account or address on file (a code sent to it);
 * `signed_declaration`: a declaration under penalty of perjury (CCPA regs §7062(b)).
 */
export const VERIFICATION_METHODS = ['existing_auth', 'manual', 'document', 'account_match', 'signed_declaration'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
export const DEFAULT_VERIFICATION_METHOD: VerificationMethod = 'manual';

/**
 * The level a case opens with when the command names none: requests that hand
 * data out or destroy it need the higher certainty (access to specific pieces,
 * portability, deletion); the others a reasonable one.
 */
export const DEFAULT_VERIFICATION_LEVEL: Readonly<Record<RequestType, VerificationLevel>> = {
  access: 'enhanced',
  portability: 'enhanced',
  deletion: 'enhanced',
  rectification: 'reasonable',
  restriction: 'reasonable',
  objection: 'reasonable',
  opt_out: 'reasonable',
};

/**
 * The level a case opens with when the command names none. A request in triage (`null`: no type yet) gets the
 * strictest level any type has: until the right is known, it may be one that hands data out or destroys it.
 */
export function defaultVerificationLevel(requestType: RequestType | null): VerificationLevel {
  if (requestType !== null) return DEFAULT_VERIFICATION_LEVEL[requestType];
  // VERIFICATION_LEVELS runs from the least to the most certain.
  return Object.values(DEFAULT_VERIFICATION_LEVEL).reduce((a, b) => (VERIFICATION_LEVELS.indexOf(b) > VERIFICATION_LEVELS.indexOf(a) ? b : a));
}

export const VERIFICATION_CASE_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'cancelled'] as const;
export type VerificationCaseStatus = (typeof VERIFICATION_CASE_STATUSES)[number];

/** Why identity could not be verified (the request's refusal reason is always `identity_not_verified`). */
export const VERIFICATION_REJECTION_REASONS = ['insufficient_evidence', 'evidence_mismatch', 'suspected_fraud', 'no_response', 'other'] as const;
export type VerificationRejectionReason = (typeof VERIFICATION_REJECTION_REASONS)[number];
export const DEFAULT_VERIFICATION_REJECTION_REASON: VerificationRejectionReason = 'insufficient_evidence';

/** A list of methods; a method named twice counts once. */
const methodList = z
  .array(z.enum(VERIFICATION_METHODS))
  .min(1)
  .max(VERIFICATION_METHODS.length)
  .transform((m) => [...new Set(m)]);

export const verificationRequestCommand = z
  .strictObject({
    level: z
      .enum(VERIFICATION_LEVELS)
      .optional()
      .describe('Default by request type: `enhanced` for access, portability and deletion, `reasonable` for the others; `enhanced` for a request in triage (no type yet)'),
    method: z.enum(VERIFICATION_METHODS).optional().describe('How identity will be established; default `manual`'),
    methodsAllowed: methodList.optional().describe('Methods the person may use; default `[method]`'),
    reasonForDoubt: text(2_000).optional().describe('Why the identity is in doubt (kept in the verification service, not in events)'),
    pauseClock: z
      .boolean()
      .optional()
      .describe('Whether the legal clock pauses while identity is checked; default true. The pack decides what a pause does (docs/clock.md): restart, suspend or nothing (US-CA)'),
  })
  .meta({ id: 'VerificationRequestCommand' });
export type VerificationRequestCommand = z.infer<typeof verificationRequestCommand>;

export const verificationRequested = z
  .object({
    requestId: z.uuid(),
    caseId: z.uuid().describe('The case that holds the request; asking again while it is pending returns the same case'),
    status: z.literal('verification_pending'),
  })
  .meta({ id: 'VerificationRequested' });
export type VerificationRequested = z.infer<typeof verificationRequested>;

/** What an opaque artifact key looks like: `ev_` and 32 hex digits. */
export const EVIDENCE_ARTIFACT_KEY_PATTERN = /^ev_[0-9a-f]{32}$/;
export const evidenceArtifactKey = z.string().regex(EVIDENCE_ARTIFACT_KEY_PATTERN, 'must be an artifactKey returned by the evidence upload, e.g. ev_3f2a…');

/**
 * One piece of evidence: a file uploaded to this request (`upload`, by its
 * `artifactKey`), or something held elsewhere (`external`: the system that
 * holds it, its reference there and, optionally, the sha256 of its bytes).
 */
export const evidenceArtifactReference = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('upload'), artifactKey: evidenceArtifactKey }),
    z.strictObject({
      type: z.literal('external'),
      system: text(100).describe('Where the evidence is held, e.g. `idv-vendor` or `crm`'),
      reference: text(500).describe('Its id or URL there'),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits')
        .optional(),
    }),
  ])
  .meta({ id: 'EvidenceArtifactReference' });
export type EvidenceArtifactReference = z.infer<typeof evidenceArtifactReference>;

export const verificationEvidenceCommand = z
  .strictObject({
    level: z.enum(VERIFICATION_LEVELS),
    evidenceArtifacts: z.array(evidenceArtifactReference).min(1).max(50),
    methodsAllowed: methodList,
    reasonForDoubt: text(2_000).optional(),
  })
  .meta({ id: 'VerificationEvidenceCommand' });
export type VerificationEvidenceCommand = z.infer<typeof verificationEvidenceCommand>;

export const EVIDENCE_STATUSES = ['pending', 'accepted', 'rejected'] as const;

export const verificationEvidenceRecorded = z
  .object({
    requestId: z.uuid(),
    evidenceId: z.uuid(),
    level: z.enum(VERIFICATION_LEVELS),
    status: z.literal('pending'),
    surface: z.literal('verification_evidence'),
  })
  .meta({ id: 'VerificationEvidenceRecorded' });

export const evidenceUploaded = z
  .object({
    artifactKey: evidenceArtifactKey,
    evidenceId: z.uuid(),
    requestId: z.uuid(),
    status: z.literal('pending'),
  })
  .meta({ id: 'EvidenceUploaded' });

/** A media type as a header gives it: `type/subtype`, parameters allowed (`application/pdf; charset=binary`). */
export const MEDIA_TYPE_HEADER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\s*(?:;.*)?$/;

/** Headers of the evidence upload; the body is the file's bytes. */
export const EVIDENCE_UPLOAD_HEADERS = {
  filename: 'x-evidence-filename',
  contentType: 'x-evidence-content-type',
  level: 'x-evidence-level',
} as const;

export const verificationApproveCommand = z
  .strictObject({
    method: z.enum(VERIFICATION_METHODS).optional().describe("How identity was established; default the case's method"),
    note: text(2_000).optional(),
  })
  .meta({ id: 'VerificationApproveCommand' });
export type VerificationApproveCommand = z.infer<typeof verificationApproveCommand>;

export const verificationRejectCommand = z
  .strictObject({
    reason: z.enum(VERIFICATION_REJECTION_REASONS).optional().describe('Default `insufficient_evidence`; the request is refused with `identity_not_verified`'),
    message: text(10_000).optional().describe('What the person is told'),
  })
  .meta({ id: 'VerificationRejectCommand' });
export type VerificationRejectCommand = z.infer<typeof verificationRejectCommand>;

export const verificationDecided = z.object({ requestId: z.uuid(), status: z.enum(REQUEST_STATUSES) }).meta({ id: 'VerificationDecided' });

const evidenceFile = z.object({
  artifactKey: evidenceArtifactKey,
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string(),
  uploadedAt: timestamp,
  uploadedBy: z.string(),
});

export const verificationEvidenceView = z.object({
  evidenceId: z.uuid(),
  level: z.enum(VERIFICATION_LEVELS),
  status: z.enum(EVIDENCE_STATUSES),
  methodsAllowed: z.array(z.enum(VERIFICATION_METHODS)),
  artifacts: z.array(evidenceArtifactReference).describe('What the evidence consists of'),
  files: z.array(evidenceFile).describe('Metadata of the uploaded files among the artifacts (never their bytes)'),
  hasReasonForDoubt: z.boolean(),
  createdAt: timestamp,
  createdBy: z.string(),
});

export const verificationCaseView = z
  .object({
    id: z.uuid(),
    requestId: z.uuid(),
    status: z.enum(VERIFICATION_CASE_STATUSES),
    level: z.enum(VERIFICATION_LEVELS),
    method: z.enum(VERIFICATION_METHODS),
    methodsAllowed: z.array(z.enum(VERIFICATION_METHODS)),
    pauseClock: z.boolean(),
    reasonForDoubt: z.string().nullable(),
    requestedAt: timestamp,
    requestedBy: z.string(),
    reminderDays: z.array(z.number().int()).describe('Days after `requestedAt` on which a reminder falls due'),
    remindersSent: z.array(z.object({ day: z.number().int(), at: timestamp })),
    expiresAt: timestamp.nullable().describe('When a case still pending is expired and the request refused; null when expiry is off'),
    evidence: z.array(verificationEvidenceView).describe('Evidence received for the request, oldest first'),
    decision: z
      .object({
        outcome: z.enum(['approved', 'rejected', 'expired', 'cancelled']),
        by: z.string(),
        at: timestamp,
        method: z.enum(VERIFICATION_METHODS).nullable(),
        reason: z.enum(VERIFICATION_REJECTION_REASONS).nullable(),
        note: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'VerificationCase' });
export type VerificationCaseView = z.infer<typeof verificationCaseView>;

export const evidenceFileParams = z.strictObject({ id: z.uuid(), artifactKey: evidenceArtifactKey });
