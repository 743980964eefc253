import { z } from 'zod';
import { supportedJurisdictions } from '../policy/jurisdictions';
import { PUBLIC_EVENT_TYPE_PATTERN } from '../events/event-catalog';
import { emailAddress, intParam, text, timestamp } from './fields';
import { appealView } from './appeals';
import { LIFECYCLE_ACTIONS } from './lifecycle-actions';
import { CLOCK_MODES, REQUEST_TYPES } from './request-kinds';
import { DUPLICATE_STATES, IDENTITY_KINDS, IDENTITY_VALUE_MAX_LENGTH } from './identity-kinds';
import { SHORT_REFERENCE_PATTERN } from './request-reference';

export { CLOCK_MODES, type ClockMode, REQUEST_TYPES, type RequestType } from './request-kinds';

/**
 * HTTP contracts of the request resources: the one definition that the
 * owning services validate with and the gateway publishes as OpenAPI.
 */

export const OPEN_STATUSES = ['received', 'in_progress', 'clarification_pending', 'verification_pending'] as const;
export const CLOSED_STATUSES = ['fulfilled', 'refused', 'closed'] as const;
export const REQUEST_STATUSES = [...OPEN_STATUSES, ...CLOSED_STATUSES] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const INTAKE_CHANNELS = ['web_form', 'email', 'chat', 'phone', 'postal_mail', 'in_person', 'api', 'other'] as const;
export const REQUESTOR_TYPES = ['subject', 'authorized_agent', 'parent_or_guardian', 'legal_representative', 'other'] as const;
export const AUTHORITY_STATUSES = ['not_required', 'pending', 'submitted', 'verified', 'rejected'] as const;
/** The languages intake recognises in a requester's words (ISO 639-1): those of the request type rules (docs/intake.md). */
export const REQUEST_LOCALES = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'] as const;
export type RequestLocale = (typeof REQUEST_LOCALES)[number];

/**
 * Why intake left a request's type for an operator to decide (triage): the reading was under the confidence threshold,
 * no rule matched, or the letter is in a language intake does not read (docs/intake.md).
 */
export const TRIAGE_REASONS = ['low_confidence', 'no_rule_matched', 'unsupported_language'] as const;
export type TriageReason = (typeof TRIAGE_REASONS)[number];

/** How a right showed in the letter: a citation of the law (`Art. 17 GDPR`), or the words of the ask. */
export const REQUESTED_RIGHT_BASES = ['citation', 'phrase'] as const;

/** One right a letter asks for, with the words that showed it. */
export const requestedRight = z
  .strictObject({
    type: z.enum(REQUEST_TYPES),
    phrase: text(200).describe('The words of the letter that showed the right, as written'),
    basis: z.enum(REQUESTED_RIGHT_BASES).describe('`citation`: the letter cites the law for it; `phrase`: its words ask for it'),
  })
  .meta({ id: 'RequestedRight' });
export type RequestedRight = z.infer<typeof requestedRight>;

/** The most rights one request records: a letter asks for a handful at most. */
export const MAX_REQUESTED_RIGHTS = 10;

/** A piece of evidence held elsewhere (a document store, a ticket, a mail archive), referenced, not embedded. */
export const evidenceReference = z
  .strictObject({
    type: text(64).describe('What the evidence is, e.g. `email_message`, `power_of_attorney`, `id_document`'),
    reference: text(2048).optional().describe('Where it is kept: a URI or an identifier in the host system'),
    description: text(2000).optional(),
    sha256: z
      .string()
      .regex(/^[a-f0-9]{64}$/, 'must be 64 lowercase hex characters')
      .optional()
      .describe('Content hash of the evidence'),
  })
  .meta({ id: 'EvidenceReference' });

export const intakeSource = z
  .strictObject({
    channel: z.enum(INTAKE_CHANNELS),
    rawText: text(100_000).describe('The request as the data subject wrote or said it'),
    receivedAt: timestamp.describe('When the original channel received the request: the provenance time the legal clock counts from'),
    contact: text(512).optional().describe('How to reach the requester on that channel'),
    sourceEvidence: z.array(evidenceReference).max(50).optional(),
  })
  .meta({ id: 'IntakeSource' });

export const requestor = z
  .strictObject({
    type: z.enum(REQUESTOR_TYPES),
    name: text(256).optional(),
    email: emailAddress().optional(),
    phone: text(64)
      .optional()
      .describe(
        "The requestor's phone number, in international form (`+49 30 1234567`) or in the national form of the request's jurisdiction; the identity index keeps it in E.164 (docs/identity.md)",
      ),
    relation: text(256).optional().describe('How the requestor relates to the data subject when not the subject'),
  })
  .meta({ id: 'Requestor' });

/**
 * The requestor as the request detail shows it: as recorded, or with `?requestor=masked` each identity masked
 * (`j***@example.org`, which is no longer an email address, so the detail publishes `email` as text).
 */
export const requestorView = requestor
  .extend({ email: z.string().optional().describe("The requestor's email address; masked (`j***@example.org`) with `?requestor=masked`") })
  .meta({ id: 'RequestorView' });

export const authority = z
  .strictObject({
    evidenceArtifacts: z.array(evidenceReference).max(50),
    status: z.enum(AUTHORITY_STATUSES),
    verifiedAt: timestamp.optional(),
  })
  .meta({ id: 'Authority' });

/** The jurisdiction codes intake accepts: every code a built-in pack covers, as listed and in small letters. */
export const INTAKE_JURISDICTIONS: readonly string[] = (() => {
  const codes = supportedJurisdictions();
  return [...codes, ...codes.map((c) => c.toLowerCase())];
})();

export const intakePayload = z
  .strictObject({
    jurisdiction: z
      .string()
      .trim()
      .min(2)
      .max(16)
      .transform((s) => s.toUpperCase())
      // The published enum is the catalog of the built-in packs (in capitals or small letters); any other code is a 422 naming the supported ones.
      .meta({ enum: INTAKE_JURISDICTIONS })
      .describe(
        'ISO 3166 code of the jurisdiction whose law applies: `EU`, an EU member state, `US-CA`, … (GET /policies lists them); case-insensitive. A code no pack covers is a 422 `JURISDICTION_UNSUPPORTED`',
      ),
    requestType: z.enum(REQUEST_TYPES).optional().describe('When absent, inferred from intakeSource.rawText (docs/intake.md)'),
    intakeSource,
    requestor: requestor.optional(),
    authority: authority.optional(),
    receivedAt: timestamp.optional().describe('When the service recorded the request; defaults to now, never before intakeSource.receivedAt'),
    clockMode: z.enum(CLOCK_MODES).optional().describe("Where the clock starts: `receipt`, or `active` (after identity verification) where the pack allows it; default the pack's (docs/clock.md)"),
  })
  .meta({ id: 'IntakePayload' });
export type IntakePayload = z.infer<typeof intakePayload>;

export const intakeAccepted = z.object({ id: z.uuid(), receivedAt: timestamp, status: z.literal('received') }).meta({ id: 'IntakeAccepted' });
export const captureAccepted = intakeAccepted.extend({ dueAt: timestamp }).meta({ id: 'CaptureAccepted' });

/** How intake read the letter's type: its confidence, and when it left the type to an operator, why and its best guess. */
export const letterReading = z.strictObject({
  confidence: z.number().min(0).max(1),
  triageReason: z.enum(TRIAGE_REASONS).nullable(),
  suggestedType: z.enum(REQUEST_TYPES).nullable(),
  /** The letter's language (ISO 639-1) as detected, any language; null when it could not tell. */
  detectedLanguage: z.string().min(2).max(16).nullable(),
});
export type LetterReading = z.infer<typeof letterReading>;

/**
 * What intake-gateway hands lifecycle-clock: the intake payload, normalized, with the type settled, or left to an
 * operator (triage): `requestType` null exactly when the reading gives a `triageReason`.
 */
export const newRequestCommand = z
  .strictObject({
    jurisdiction: z.string().min(2),
    /** null: the request is in triage until an operator corrects the type (`POST /requests/:id/corrections`). */
    requestType: z.enum(REQUEST_TYPES).nullable(),
    requestTypeInferred: z.boolean(),
    /** Every right the letter asks for, the primary (or suggested) one first; absent: just the type. */
    requestedRights: z.array(requestedRight).max(MAX_REQUESTED_RIGHTS).optional(),
    /** How intake read the type from the raw text; absent when the client named it. */
    reading: letterReading.optional(),
    intakeSource,
    requestor: requestor.optional(),
    authority: authority.optional(),
    receivedAt: timestamp.optional(),
    clockMode: z.enum(CLOCK_MODES).optional(),
    /** The requester's language as intake read it from the raw text; null when not recognised, absent from older callers. */
    locale: z.enum(REQUEST_LOCALES).nullable().optional(),
  })
  .superRefine((command, ctx) => {
    // Triage is a reading's verdict: a request without a type says why, and one with a type is not in triage.
    const triageReason = command.reading?.triageReason ?? null;
    if (command.requestType === null && triageReason === null) {
      ctx.addIssue({ code: 'custom', path: ['requestType'], message: 'may be null only in triage: reading.triageReason must say why' });
    }
    if (command.requestType !== null && triageReason !== null) {
      ctx.addIssue({ code: 'custom', path: ['reading', 'triageReason'], message: 'must be null when requestType is given (a request in triage has no type)' });
    }
  });
export type NewRequestCommand = z.infer<typeof newRequestCommand>;

/** A request in triage: why it has no type yet, intake's best guess, and how sure it was. */
export const requestTriage = z
  .object({
    reason: z.enum(TRIAGE_REASONS),
    suggestedType: z.enum(REQUEST_TYPES).nullable().describe('The best reading under the threshold; null when nothing matched or the language is not one intake reads'),
    confidence: z.number().describe('0–1'),
  })
  .meta({ id: 'RequestTriage' });
export type RequestTriage = z.infer<typeof requestTriage>;

/** A request marked as a duplicate at intake, and what an operator decided of it. */
export const requestDuplicate = z
  .object({
    of: z.uuid().describe('The request it repeats: the earliest open one of its group (verified requests first). After `separated`, the one it was marked against'),
    state: z.enum(DUPLICATE_STATES).describe('`marked`: waiting for an operator (`POST /requests/{id}/duplicate-resolution`); `confirmed`: refused as a duplicate; `separated`: a request of its own'),
    markedAt: timestamp,
    matchedKinds: z.array(z.enum(IDENTITY_KINDS)).describe('The kinds of identity it shares with that request'),
  })
  .meta({ id: 'RequestDuplicate' });

/** How many requests carry the same identities: a campaign from one identity shows here. */
export const identityActivity = z
  .object({
    requests: z.number().int().describe("How many of the tenant's requests (this one included) carry any of this request's identities and were received in the window up to this one's receipt"),
    windowDays: z.number().int().describe('The window, in days (IDENTITY_DUPLICATE_WINDOW_DAYS; 30 by default)'),
  })
  .meta({ id: 'IdentityActivity' });

export const requestDetail = z
  .object({
    id: z.uuid(),
    tenantId: z.string(),
    workspaceId: z.string().nullable(),
    status: z.enum(REQUEST_STATUSES),
    requestType: z
      .enum(REQUEST_TYPES)
      .nullable()
      .describe("null while the request is in triage (`triage`): an operator names the type with `POST /requests/{id}/corrections`; until then the clock runs on the pack's default rule"),
    requestTypeInferred: z.boolean().describe('True when the type was inferred from the raw text'),
    requestedRights: z.array(requestedRight).describe('Every right the letter asks for, each with the words that showed it, the primary (or suggested) one first; empty when intake recorded none'),
    typeConfidence: z.number().nullable().describe("The confidence (0–1) of intake's reading of the type; null when the client named the type"),
    detectedLanguage: z
      .string()
      .nullable()
      .describe('The language of the intake text as detected (ISO 639-1), any language; null when not detected. `locale` is set only for the languages intake reads'),
    triage: requestTriage.nullable().describe('Set while the request has no type: why intake left it to an operator, its best guess and its confidence. null once the type is known'),
    jurisdiction: z.string(),
    receivedAt: timestamp,
    dueAt: timestamp,
    clockMode: z.enum(CLOCK_MODES),
    policyPack: z.string(),
    policyVersion: z.string(),
    intakeSource,
    locale: z.string().nullable().describe("The requester's language (ISO 639-1) as inferred from the intake text; null when not recognised. Notifications use it"),
    // `{"type": "subject"}` when intake named no requestor (docs/intake.md).
    requestor: requestorView,
    authority: authority.nullable(),
    appeals: z.array(appealView).describe('Appeals against the outcome, oldest first'),
    acknowledgedAt: timestamp.nullable().describe('When the requester was told of receipt'),
    acknowledgementDueAt: timestamp.nullable().describe('When the pack requires the acknowledgement by; null where it requires none'),
    statusReason: z.string().nullable().describe('Why the request is refused or closed (docs/lifecycle.md lists the reasons)'),
    statusChangedAt: timestamp.describe('When the request entered its current status'),
    duplicate: requestDuplicate
      .nullable()
      .describe('Set when intake marked the request as a duplicate of an open request of the same person, type and jurisdiction (docs/identity.md#duplicates); kept once resolved'),
    identityActivity: identityActivity,
    allowedActions: z
      .array(z.enum(LIFECYCLE_ACTIONS))
      .describe("The workflow actions the request allows now, in the catalog order: the same list a 409 `SVC-BE-1401` names. Whether the caller may run them is its role's matter (`GET /session`)"),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'RequestDetail' });
export type RequestDetail = z.infer<typeof requestDetail>;

export const QUEUE_SORT_FIELDS = ['receivedAt', 'dueAt', 'status', 'updatedAt'] as const;
export const QUEUE_LIMIT = { default: 25, max: 200 } as const;
/**
 * With a filter the request counters do not keep (`atRiskDays`, the type, jurisdiction, channel, receipt dates,
 * reference, `waitingOnSystems`, `triage`, `identity` or `duplicate`), the queue counts up to this many matching requests exactly; beyond, its `total` is an estimate
 * (`totalExact: false`). With `atRiskDays` alone, also when at most this many open requests in scope are not at risk.
 * ADR 0029, docs/api/README.md#paging-the-queue.
 */
export const QUEUE_AT_RISK_EXACT_BOUND = 10_000;

/** One item or a comma-separated list of them (white space and empty items aside), as the queue's list filters take them. */
const listPattern = (one: string) => new RegExp(`^(?:\\s*,)*\\s*(?:${one})\\s*(?:,\\s*(?:(?:${one})\\s*)?)*$`);

/** The items of a list filter's value, trimmed, without empty ones. */
const listItems = (s: string) =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

/** A query parameter that takes one of `values` or a comma-separated list of them. */
function listFilter<const T extends readonly [string, ...string[]]>(values: T, what: string) {
  return z
    .string()
    .regex(listPattern(values.join('|')), `must be one ${what} or a comma-separated list of: ${values.join(', ')}`)
    .transform(listItems)
    .pipe(z.array(z.enum(values)).min(1));
}

const STATUS_LIST_PATTERN = listPattern(REQUEST_STATUSES.join('|'));

/** The jurisdictions the queue filters by: the codes intake takes (the built-in packs'), in any case. */
const QUEUE_JURISDICTIONS = supportedJurisdictions() as unknown as readonly [string, ...string[]];
/** One of those codes in any case (`DE`, `us-ca`), spelt out, so that the published pattern admits exactly what the server takes. */
const JURISDICTION_CODE = QUEUE_JURISDICTIONS.map((code) => code.replace(/[A-Z]/g, (c) => `[${c}${c.toLowerCase()}]`)).join('|');

export const queueQuery = z
  .strictObject({
    limit: intParam(1, QUEUE_LIMIT.max).optional().describe(`Page size, 1–${QUEUE_LIMIT.max}; default ${QUEUE_LIMIT.default}`),
    offset: intParam(0, 10_000_000).optional().describe('Items to skip; default 0'),
    status: z
      .string()
      .regex(STATUS_LIST_PATTERN, `must be one status or a comma-separated list of: ${REQUEST_STATUSES.join(', ')}`)
      .transform(listItems)
      .pipe(z.array(z.enum(REQUEST_STATUSES)).min(1))
      .optional()
      .describe('One status or a comma-separated list'),
    sortBy: z.enum(QUEUE_SORT_FIELDS).optional().describe('Default `receivedAt`'),
    sortOrder: z.enum(['asc', 'desc']).optional().describe('Default `desc`'),
    atRiskDays: intParam(0, 3650).optional().describe('Only open requests due within this many days from now; overdue ones are included'),
    requestType: listFilter(REQUEST_TYPES, 'request type').optional().describe('One request type or a comma-separated list'),
    jurisdiction: z
      .string()
      .regex(listPattern(JURISDICTION_CODE), `must be one jurisdiction code or a comma-separated list, in any case, of: ${QUEUE_JURISDICTIONS.join(', ')}`)
      .transform((s) => listItems(s).map((code) => code.toUpperCase()))
      .pipe(z.array(z.enum(QUEUE_JURISDICTIONS)).min(1))
      .optional()
      .describe('One jurisdiction code or a comma-separated list, in any case (`GET /policies` lists them)'),
    channel: listFilter(INTAKE_CHANNELS, 'intake channel').optional().describe('One intake channel or a comma-separated list'),
    receivedFrom: timestamp.optional().describe('Only requests received at or after this instant (`receivedAt`)'),
    receivedTo: timestamp
      .optional()
      .describe('Only requests received before this instant (`receivedAt`; the end is not included, so ranges follow on without overlap). At or before `receivedFrom`, the range is empty'),
    reference: z
      .string()
      .regex(SHORT_REFERENCE_PATTERN, 'must be a short request reference: DSAR- and eight hex digits, e.g. DSAR-1A2B3C4D')
      .transform((s) => s.toUpperCase())
      .optional()
      .describe("Only the request (or, rarely, the requests) whose id starts with the reference's eight hex digits: `DSAR-1A2B3C4D`, in any case"),
    waitingOnSystems: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe(
        "`true`: only requests with a required data-system task still open (waiting, queued, claimed, blocked or action required); `false`: only those without. Kept from the task events, so it follows a task's change a moment later (docs/data-systems.md)",
      ),
    triage: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('`true`: only requests in triage (no request type yet, for an operator to name with a correction); `false`: only those with a type'),
    identity: text(IDENTITY_VALUE_MAX_LENGTH)
      .optional()
      .describe(
        'Only the requests that carry this identity, matched exactly after normalisation (an email in any case, a phone number in any usual form): through the blind index, never across tenants, never fuzzy (docs/identity.md). Of the kind `identityKind`',
      ),
    identityKind: z
      .enum(IDENTITY_KINDS)
      .optional()
      .describe(
        "The kind of `identity`: `email` (default), `phone` (international form, or national in the `jurisdiction` filter's country) or `account` (an account id given as `account_id` evidence)",
      ),
    duplicate: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('`true`: only requests marked as a duplicate of another (waiting for an operator, or confirmed); `false`: only those that are not'),
  })
  .meta({ id: 'QueueQuery' });
export type QueueQuery = z.infer<typeof queueQuery>;

export const queueItem = z
  .object({
    id: z.uuid(),
    workspaceId: z.string().nullable(),
    status: z.enum(REQUEST_STATUSES),
    requestType: z.enum(REQUEST_TYPES).nullable().describe('null while the request is in triage'),
    triage: z.boolean().describe('In triage: no request type yet'),
    duplicateOf: z.uuid().nullable().describe('The request it was marked a duplicate of (waiting for an operator, or confirmed); null otherwise'),
    jurisdiction: z.string(),
    channel: z.enum(INTAKE_CHANNELS),
    receivedAt: timestamp,
    dueAt: timestamp,
    updatedAt: timestamp,
    overdue: z.boolean().describe('Open and past its due time'),
  })
  .meta({ id: 'QueueItem' });

export const queuePage = z
  .object({
    items: z.array(queueItem),
    limit: z.number().int(),
    offset: z.number().int(),
    sortBy: z.enum(QUEUE_SORT_FIELDS),
    sortOrder: z.enum(['asc', 'desc']),
    status: z.array(z.enum(REQUEST_STATUSES)).optional(),
    atRiskDays: z.number().int().optional(),
    requestType: z.array(z.enum(REQUEST_TYPES)).optional(),
    jurisdiction: z.array(z.string()).optional(),
    channel: z.array(z.enum(INTAKE_CHANNELS)).optional(),
    receivedFrom: timestamp.optional(),
    receivedTo: timestamp.optional(),
    reference: z.string().optional(),
    waitingOnSystems: z.boolean().optional(),
    triage: z.boolean().optional(),
    identityKind: z.enum(IDENTITY_KINDS).optional().describe('Echoed when the page is a search by identity (the identity itself is not echoed)'),
    duplicate: z.boolean().optional(),
    total: z.number().int().describe('Requests matching the filters, across all pages; an estimate when `totalExact` is false'),
    totalExact: z
      .boolean()
      .describe(
        `False only when more than ${QUEUE_AT_RISK_EXACT_BOUND.toLocaleString('en-US')} requests match a filter the request counters do not keep (\`atRiskDays\`, \`requestType\`, \`jurisdiction\`, \`channel\`, \`receivedFrom\`, \`receivedTo\`, \`reference\`, \`waitingOnSystems\`, \`triage\`, \`identity\`, \`duplicate\`): \`total\` is then an estimate. With \`atRiskDays\` alone it stays exact while either the requests at risk or the other open ones in scope number ${QUEUE_AT_RISK_EXACT_BOUND.toLocaleString('en-US')} or fewer`,
      ),
  })
  .meta({ id: 'QueuePage' });
export type QueuePage = z.infer<typeof queuePage>;

export const timelineEvent = z
  .object({
    id: z.string().describe('The domain event id'),
    eventType: z
      .string()
      .regex(PUBLIC_EVENT_TYPE_PATTERN, { error: 'must be a public event type: lower-case words joined with _, e.g. request_created' })
      .describe('The public name of the event type: the CloudEvents type without `dsar.` and its version, joined with `_` (`dsar.request.created.v1` → `request_created`)'),
    createdAt: timestamp,
    payload: z.record(z.string(), z.unknown()).describe("The event's facts; personal data never appears in clear"),
  })
  .meta({ id: 'TimelineEvent' });
export const timeline = z.object({ requestId: z.uuid(), events: z.array(timelineEvent) }).meta({ id: 'Timeline' });
export type Timeline = z.infer<typeof timeline>;
