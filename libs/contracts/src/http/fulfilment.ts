import { z } from 'zod';
import { DATA_SYSTEM_ACTIONS } from './data-systems';
import { addressToCompare, intParam, NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_MESSAGE, NOT_BLANK, text, timestamp } from './fields';
import { erasureConfirmation, TASK_OUTCOMES, TASK_STATES } from './tasks';

/**
 * HTTP contracts of fulfilment and delivery (docs/fulfilment.md): the
 * manifest of the data produced for a request, its artifacts (files,
 * encrypted at rest), their review, the fulfilment, and the step-up gated
 * delivery of the artifacts to the data subject.
 */

export const ARTIFACT_TYPES = ['profile_data', 'account_data', 'support_tickets', 'audit_logs', 'other'] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];
export const DEFAULT_ARTIFACT_TYPE: ArtifactType = 'other';

export const MANIFEST_VALIDATION_STATES = ['pending', 'approved', 'rejected'] as const;
export type ManifestValidationState = (typeof MANIFEST_VALIDATION_STATES)[number];

/** An artifact's storage key, one per stored version: `art_` and 32 hex digits. */
export const ARTIFACT_KEY_PATTERN = /^art_[0-9a-f]{32}$/;

/** Headers of an artifact upload or replacement; the body is the file's bytes. */
export const ARTIFACT_UPLOAD_HEADERS = {
  filename: 'x-artifact-filename',
  contentType: 'x-artifact-content-type',
  title: 'x-artifact-title',
  type: 'x-artifact-type',
  /** A replacement's only: why the file was replaced (a redaction), recorded in the artifact's `redactionsApplied`. */
  redactionReason: 'x-artifact-redaction-reason',
} as const;

/** The longest reason a replacement may give (`x-artifact-redaction-reason`), in characters: as an entry of a manifest's `redactionsApplied`. */
export const MAX_REDACTION_REASON_LENGTH = 500;

/** One percent-escaped byte of a UTF-8 continuation (80–BF). */
const CONTINUATION = '%[89ABab][0-9A-Fa-f]';
/**
 * The characters a URL-encoded text header may carry, each as sent or as its UTF-8 escapes: anything but `%` and
 * control characters as sent; escaped, a character that is not a control character (C0, DEL, C1) nor a
 * bidirectional override or isolate (U+202A–U+202E, U+2066–U+2069), in well-formed UTF-8 (no overlong form, no
 * surrogate). Every branch starts with its own bytes, so the pattern never backtracks more than one character.
 */
const ENCODED_CHARACTER = [
  '[^%\\x00-\\x1F\\x7F-\\x9F]',
  '%(?:[2-6][0-9A-Fa-f]|7[0-9A-Ea-e])',
  '%[Cc]2%[ABab][0-9A-Fa-f]',
  `%(?:[Cc][3-9A-Fa-f]|[Dd][0-9A-Fa-f])${CONTINUATION}`,
  `%[Ee]0%[ABab][0-9A-Fa-f]${CONTINUATION}`,
  '%[Ee]2%80%(?:[89Bb][0-9A-Fa-f]|[Aa][0-9Ff])',
  '%[Ee]2%81%(?:[89Bb][0-9A-Fa-f]|[Aa][0-5A-Fa-f])',
  `%[Ee]2%(?:8[2-9A-Fa-f]|[9ABab][0-9A-Fa-f])${CONTINUATION}`,
  `%[Ee][13-9A-Ca-cEeFf]${CONTINUATION}${CONTINUATION}`,
  `%[Ee][Dd]%[89][0-9A-Fa-f]${CONTINUATION}`,
  `%[Ff]0%[9ABab][0-9A-Fa-f]${CONTINUATION}${CONTINUATION}`,
  `%[Ff][1-3]${CONTINUATION}${CONTINUATION}${CONTINUATION}`,
  `%[Ff]4%8[0-9A-Fa-f]${CONTINUATION}${CONTINUATION}`,
].join('|');

/**
 * A URL-encoded text header as the server takes it (`x-artifact-filename`, `x-artifact-title`): its characters as
 * sent or as UTF-8 escapes, none of them a control character or a bidirectional override, a tab included. What
 * only the decoded text shows beyond that (a name that is only a directory, `.` or `..`) is said in words.
 */
export const ENCODED_HEADER_TEXT_PATTERN = new RegExp(`^(?:${ENCODED_CHARACTER})*$`);
const ENCODED_HEADER_TEXT_MESSAGE = 'must be URL-encoded UTF-8 text (each % starts an escape such as %20) without control characters or bidirectional overrides';

/** `x-artifact-filename`, as the gateway checks it and the API publishes it: URL-encoded text that names the file (not empty, not white space alone). */
export const artifactFilenameHeader = z.string().regex(ENCODED_HEADER_TEXT_PATTERN, ENCODED_HEADER_TEXT_MESSAGE).regex(NOT_BLANK, 'must name the file: not empty, not white space alone');

/** `x-artifact-title`, as the gateway checks it and the API publishes it: URL-encoded text (blank: the default title). */
export const artifactTitleHeader = z.string().regex(ENCODED_HEADER_TEXT_PATTERN, ENCODED_HEADER_TEXT_MESSAGE);

/** `x-evidence-filename`, as the gateway checks it and the API publishes it: URL-encoded text (blank: the default name `evidence`). */
export const evidenceFilenameHeader = z.string().regex(ENCODED_HEADER_TEXT_PATTERN, ENCODED_HEADER_TEXT_MESSAGE);

/** The header that carries a completed step-up token to the delivery download. */
export const DELIVERY_TOKEN_HEADER = 'x-delivery-token';

/** A category of personal data, as the controller names it (`contact_details`, `purchase_history`…). */
const category = text(200);

/** A version of an artifact that a replacement superseded: kept for review until the request is fulfilled, then purged. */
export const artifactPreviousVersion = z
  .object({
    version: z.number().int().positive(),
    artifactKey: z.string(),
    filename: z.string(),
    contentType: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    createdAt: timestamp,
    createdBy: z.string(),
    replacedAt: timestamp,
    purged: z.boolean().describe('True once its bytes were deleted (at fulfilment, or by retention); it can no longer be downloaded'),
  })
  .meta({ id: 'ArtifactPreviousVersion' });

/** A replacement of an artifact's file (a redaction): who made it, when, why, and which version it made. */
export const artifactRedaction = z
  .object({
    version: z.number().int().min(2).describe('The version the replacement made'),
    by: z.string().describe('Who replaced the file'),
    at: timestamp,
    reason: z.string().nullable().describe('Why, as the replacement said (`x-artifact-redaction-reason`); null when it gave none'),
    previousSha256: z.string().describe('The sha256 of the version it replaced'),
  })
  .meta({ id: 'ArtifactRedaction' });

export const artifactRecord = z
  .object({
    artifactId: z.uuid().describe('Stable across replacements'),
    artifactKey: z.string().describe('The storage key of the current version (`art_…`); a replacement gets a new one'),
    filename: z.string().describe("The display name: the file name of the upload, kept when the file is replaced; the data subject's download and its `Content-Disposition` carry it"),
    versionFilename: z.string().describe('The file name the current version was sent with (`x-artifact-filename` of the upload or of the latest replacement)'),
    title: z.string(),
    type: z.enum(ARTIFACT_TYPES),
    contentType: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    version: z.number().int().positive().describe('1 for the upload, +1 per replacement'),
    dataCategories: z.array(z.string()).describe('Set by the fulfilment callback'),
    createdAt: timestamp,
    createdBy: z.string(),
    updatedAt: timestamp,
    updatedBy: z.string(),
    previousVersions: z.array(artifactPreviousVersion).describe('The versions replacements superseded, oldest first'),
    redactionsApplied: z.array(artifactRedaction).describe('Each replacement of the file (a redaction), oldest first: who, when and why'),
    purgedAt: timestamp.nullable().describe("When the artifact's bytes were deleted (retention class `fulfilment_artifact`); its metadata stays"),
    systemKey: z.string().nullable().describe("The data system whose task answered with this file (its connector's file or rows); null for a person's upload"),
  })
  .meta({ id: 'ArtifactRecord' });
export type ArtifactRecord = z.infer<typeof artifactRecord>;

/** A data system the request was sent to, as its manifest shows it: its task's state, answer and files. */
export const manifestSystem = z
  .object({
    systemKey: z.string(),
    displayName: z.string().describe("The system's name in the registry (its key when it was deleted since)"),
    action: z.enum(DATA_SYSTEM_ACTIONS),
    state: z.enum(TASK_STATES),
    outcome: z.enum(TASK_OUTCOMES).nullable().describe("The answer's outcome; null until the task is answered"),
    erasure: erasureConfirmation.nullable().describe("What the system erased (an erasure task's confirmation); null otherwise"),
    artifactIds: z.array(z.uuid()).describe('The files it answered with (artifacts of this manifest)'),
    answeredAt: timestamp.nullable(),
  })
  .meta({ id: 'ManifestSystem' });
export type ManifestSystem = z.infer<typeof manifestSystem>;

export const manifestView = z
  .object({
    requestId: z.uuid(),
    version: z.number().int().nonnegative().describe('0 while the request has no manifest; +1 per change'),
    artifacts: z.array(artifactRecord),
    dataCategories: z.array(z.string()),
    redactionsApplied: z.array(z.string()),
    thirdPartyExclusions: z.array(z.string()),
    validationState: z.enum(MANIFEST_VALIDATION_STATES).nullable().describe('null while the request has no manifest; any change to the artifacts sets it back to `pending`'),
    supplementaryInfoInline: z.string().nullable(),
    supplementaryInfoRef: z.string().nullable(),
    review: z
      .object({
        action: z.enum(['approved', 'rejected']),
        by: z.string(),
        at: timestamp,
        comment: z.string().nullable(),
        version: z.number().int().describe('The manifest version the decision was made on'),
        outdated: z
          .boolean()
          .describe(
            'True once the manifest changed after the decision (`version` is an earlier one): it approved or rejected another content, not the current one, which `validationState` says is pending',
          ),
      })
      .nullable()
      .describe('The latest review decision, for the manifest version it was made on; `outdated` when the manifest has changed since'),
    history: z
      .array(z.object({ version: z.number().int(), change: z.string(), by: z.string(), at: timestamp, validationState: z.enum(MANIFEST_VALIDATION_STATES) }))
      .describe('Every change, oldest first'),
    systems: z.array(manifestSystem).describe("The data systems the request was sent to (one per task), by key: each with its task's state, answer and files"),
  })
  .meta({ id: 'Manifest' });
export type ManifestView = z.infer<typeof manifestView>;

export const artifactUploaded = z.object({ artifactId: z.uuid(), artifactKey: z.string(), requestId: z.uuid() }).meta({ id: 'ArtifactUploaded' });

export const artifactReplaced = z.object({ artifactId: z.uuid(), artifactKey: z.string(), replaced: z.literal(true), requestId: z.uuid() }).meta({ id: 'ArtifactReplaced' });

export const artifactDownloadQuery = z
  .strictObject({
    artifactId: z.uuid().describe('The artifact to download'),
    version: intParam(1, 1_000_000).optional().describe('A version of the artifact; default the current one. A replaced version can be downloaded until the request is fulfilled'),
  })
  .meta({ id: 'ArtifactDownloadQuery' });
export type ArtifactDownloadQuery = z.infer<typeof artifactDownloadQuery>;

/**
 * One element of a callback's `artifacts`: an artifact uploaded to this request,
 * by id, with the data categories it holds (and optionally a better title).
 */
export const callbackArtifact = z
  .strictObject({
    artifactId: z.uuid(),
    dataCategories: z.array(category).max(100).optional(),
    title: text(300).optional(),
  })
  .meta({ id: 'CallbackArtifact' });

export const fulfilmentCallbackCommand = z
  .strictObject({
    manifest: z.strictObject({
      artifacts: z.array(callbackArtifact).max(1000),
      dataCategories: z.array(category).max(100).optional(),
      redactionsApplied: z.array(text(500)).max(100).optional(),
      thirdPartyExclusions: z.array(text(500)).max(100).optional(),
      supplementaryInfoInline: text(20_000).optional(),
      supplementaryInfoRef: text(2_000).optional(),
    }),
  })
  .meta({ id: 'FulfilmentCallbackCommand' });
export type FulfilmentCallbackCommand = z.infer<typeof fulfilmentCallbackCommand>;

export const callbackRecorded = z.object({ requestId: z.uuid(), status: z.literal('recorded') }).meta({ id: 'CallbackRecorded' });

export const manifestValidateCommand = z
  .strictObject({
    action: z.enum(['approved', 'rejected']),
    comment: text(5_000).optional(),
    version: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .describe(
        'The manifest `version` the reviewer read (GET …/manifest). When the manifest has moved on since, the review is refused (409 `SVC-BE-1216`) instead of approving what the reviewer never saw. Default: the version current when the review arrives',
      ),
  })
  .meta({ id: 'ManifestValidateCommand' });
export type ManifestValidateCommand = z.infer<typeof manifestValidateCommand>;

export const manifestValidated = z.object({ id: z.uuid().describe('The request id'), status: z.enum(['approved', 'rejected']) }).meta({ id: 'ManifestValidated' });

export const fulfilmentResult = z.object({ id: z.uuid(), status: z.literal('fulfilled'), dueAt: timestamp }).meta({ id: 'FulfilmentResult' });

export const DELIVERY_CHANNELS = ['portal', 'email', 'secure_remote_access'] as const;
export const DELIVERY_SECURITY_LEVELS = ['standard', 'token'] as const;

export const deliveryPrepareCommand = z.strictObject({ channel: z.enum(DELIVERY_CHANNELS), securityLevel: z.enum(DELIVERY_SECURITY_LEVELS) }).meta({ id: 'DeliveryPrepareCommand' });
export type DeliveryPrepareCommand = z.infer<typeof deliveryPrepareCommand>;

export const deliveryPrepared = z
  .object({
    requestId: z.uuid(),
    artifactId: z.uuid().describe('The first artifact of `artifacts` (kept for clients that read one)'),
    artifacts: z
      .array(artifactRecord.pick({ artifactId: true, filename: true, title: true, type: true, contentType: true, size: true, sha256: true, version: true }))
      .min(1)
      .describe('Every artifact the delivery hands out, oldest first: the current version of each, under its display name'),
    deliveryPrepare: z.object({ channel: z.enum(DELIVERY_CHANNELS), securityLevel: z.enum(DELIVERY_SECURITY_LEVELS), preparedAt: timestamp, preparedBy: z.string() }),
    surface: z.literal('delivery_prepare'),
  })
  .meta({ id: 'DeliveryPrepared' });

export const addressVerifyCommand = z
  .strictObject({
    // Trimmed before the check: an address pasted with surrounding white space is the same address. Published as
    // an email without the address pattern, which the untrimmed input need not match.
    email: addressToCompare().optional().describe("Surrounding white space is trimmed. Default: the requestor's known address"),
  })
  .meta({ id: 'AddressVerifyCommand' });
export const addressVerified = z
  .object({
    requestId: z.uuid(),
    email: z.string().nullable().describe('The normalized address asked about; without `email`, the known address masked, or null when there is none'),
    addressKnown: z.boolean().describe('Whether the request has a known email address (requestor.email, else an email intake contact)'),
    verified: z
      .boolean()
      .describe(
        'With `email`: whether it is the known address. Without `email`: deprecated alias of `addressKnown` (it says that an address is known, not that one was checked); read `addressKnown` instead',
      ),
  })
  .meta({ id: 'AddressVerified' });

export const stepUpChallenge = z
  .object({ requestId: z.uuid(), token: z.string().describe('Shown once; stored only as a hash'), expiresAt: timestamp.describe('Exactly 24 hours after issuance') })
  .meta({ id: 'StepUpChallenge' });

export const stepUpCompleteCommand = z.strictObject({ token: z.string().min(1).max(200).regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE }) }).meta({ id: 'StepUpCompleteCommand' });
export const stepUpCompleted = z.object({ requestId: z.uuid(), status: z.literal('completed') }).meta({ id: 'StepUpCompleted' });

export const deliveredArtifact = z
  .object({
    requestId: z.uuid(),
    artifactId: z.uuid(),
    artifact: artifactRecord.pick({ artifactId: true, filename: true, title: true, type: true, contentType: true, size: true, sha256: true, version: true }).extend({
      download: z.string().describe('Where the bytes are: this same URL with `Accept: application/octet-stream` and the same token'),
    }),
  })
  .meta({ id: 'DeliveredArtifact' });

/**
 * The event types of the delivery log, by their public names (`delivery_prepared` for `dsar.delivery.prepared.v1`,
 * `publicEventType`): the CloudEvents types stay on Kafka.
 */
export const DELIVERY_LOG_EVENT_TYPES = ['delivery_prepared', 'delivery_step_up_issued', 'delivery_step_up_completed', 'delivery_step_up_failed', 'delivery_artifact_delivered'] as const;

export const deliveryLogs = z
  .object({
    requestId: z.uuid(),
    logs: z.array(
      z.object({
        eventId: z.uuid(),
        eventType: z.enum(DELIVERY_LOG_EVENT_TYPES).describe('The public name of the event type (`delivery_prepared` for the CloudEvents type `dsar.delivery.prepared.v1`)'),
        attempts: z.array(
          z.object({
            attempt: z.number().int().positive(),
            at: timestamp.describe('When the try happened; for repeated refusals, the first of them'),
            outcome: z.string(),
            actor: z.string(),
            detail: z.string().nullable(),
            repeats: z
              .number()
              .int()
              .positive()
              .describe('How many tries the entry stands for: 1, or more for the same refusal repeated by the same caller with nothing in between (only the first published an event)'),
            lastAt: timestamp.describe('The latest of those tries; `at` when there is one'),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'DeliveryLogs' });
