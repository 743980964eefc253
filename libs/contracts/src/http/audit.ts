import { z } from 'zod';
import { auditCheckpointSignedV1 } from '../events/audit-events';
import { intParam, timestamp } from './fields';

/** HTTP contracts of the audit chain (docs/audit.md). */

export const AUDIT_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];

/** Media types of the streamed export files, by format. */
export const AUDIT_EXPORT_MEDIA_TYPES: Readonly<Record<AuditExportFormat, string>> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
};

/** Response headers of a streamed export: the chain head it covers. */
export const AUDIT_ROOT_HASH_HEADER = 'x-audit-root-hash';
export const AUDIT_HEAD_SEQUENCE_HEADER = 'x-audit-head-sequence';

const hash = z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: followed by 64 lowercase hex digits');

export const auditExportQuery = z.strictObject({ format: z.enum(AUDIT_EXPORT_FORMATS).optional().describe('Default `jsonl`') }).meta({ id: 'AuditExportQuery' });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

export const auditEntry = z
  .object({
    sequence: z.number().int().positive().describe("1, 2, … within the request's chain, assigned by the ledger"),
    tenantId: z.string(),
    requestId: z.string(),
    eventId: z.uuid().describe("The domain event's id: an event is in the chain once"),
    eventType: z.string().describe('e.g. `dsar.request.created.v1`'),
    source: z.string().describe('The service that emitted the event, e.g. `/dsar/lifecycle-clock`'),
    actor: z.string().describe('Who acted: the principal the event names, or the emitting service'),
    occurredAt: timestamp,
    recordedAt: timestamp.describe('When the ledger appended it'),
    payload: z.record(z.string(), z.unknown()).describe("The event's facts; free text that may hold personal data appears as `hmac-sha256:<hex>`"),
    prevHash: hash.describe("The previous entry's hash; `sha256:` and 64 zeros for the first"),
    hash: hash.describe('sha256 of prevHash followed by the RFC 8785 JSON of every other field'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPurgedPrefix = z
  .object({
    throughSequence: z.number().int().positive(),
    hash: hash.describe("The hash of the last purged entry: the first kept entry's prevHash"),
    purgedAt: timestamp,
  })
  .meta({ id: 'AuditPurgedPrefix' });
export type AuditPurgedPrefix = z.infer<typeof auditPurgedPrefix>;

export const auditExport = z
  .object({
    requestId: z.uuid(),
    format: z.enum(AUDIT_EXPORT_FORMATS),
    events: z.array(auditEntry).describe('The chain, oldest first'),
    rootHash: hash.describe('The hash of the chain head (the last entry)'),
    headSequence: z.number().int().positive(),
    purgedPrefix: auditPurgedPrefix.nullable().describe('Set when retention purged the start of the chain'),
    content: z
      .string()
      .optional()
      .describe(
        "For `format=csv`: the CSV file (RFC 4180, header row, CRLF line ends), the same rows as a `text/csv` download. A cell that starts with `=`, `+`, `-`, `@`, a tab, a carriage return or `'` is written with a leading `'` (a spreadsheet reads it as text); drop it to read the value back",
      ),
  })
  .meta({ id: 'AuditExport' });
export type AuditExport = z.infer<typeof auditExport>;

export const auditVerifyCommand = z
  .strictObject({
    hash: hash.describe('The hash you hold for the entry at `sequence` (from an export or a checkpoint)'),
    prevHash: hash.optional().describe('The previous link you hold for that entry, to check continuity'),
    sequence: z.number().int().positive().describe('The entry to verify; the chain is recomputed from its start up to it'),
  })
  .meta({ id: 'AuditVerifyCommand' });
export type AuditVerifyCommand = z.infer<typeof auditVerifyCommand>;

/** What a mismatch found (docs/audit.md#verify). */
export const AUDIT_MISMATCH_KINDS = ['content', 'link', 'sequence', 'claimed_hash', 'claimed_prev_hash'] as const;
/** Outcomes of a verification. */
export const AUDIT_VERIFY_STATUSES = ['verified', 'tampered', 'hash_mismatch', 'sequence_not_found', 'purged'] as const;
export type AuditVerifyStatus = (typeof AUDIT_VERIFY_STATUSES)[number];

export const auditMismatch = z
  .object({
    eventId: z.uuid(),
    sequence: z.number().int().positive(),
    kind: z.enum(AUDIT_MISMATCH_KINDS),
    expectedHash: hash,
    actualHash: hash,
  })
  .meta({ id: 'AuditMismatch' });
export type AuditMismatch = z.infer<typeof auditMismatch>;

export const auditVerifyResult = z
  .object({
    verified: z.boolean(),
    status: z.enum(AUDIT_VERIFY_STATUSES),
    mismatches: z.array(auditMismatch),
    sequence: z.number().int().positive(),
    checkedEntries: z.number().int().nonnegative().describe('Entries recomputed'),
  })
  .meta({ id: 'AuditVerifyResult' });
export type AuditVerifyResult = z.infer<typeof auditVerifyResult>;

export const auditCheckpointQuery = z.strictObject({ limit: intParam(1, 100).optional().describe('Newest first; default 20') }).meta({ id: 'AuditCheckpointQuery' });
export type AuditCheckpointQuery = z.infer<typeof auditCheckpointQuery>;

/** A signed checkpoint, as its event carries it. */
export const auditCheckpoint = auditCheckpointSignedV1.meta({ id: 'AuditCheckpoint' });
export type AuditCheckpoint = z.infer<typeof auditCheckpoint>;

export const auditCheckpointLeaf = z.object({ requestId: z.string(), sequence: z.number().int().positive(), hash }).meta({ id: 'AuditCheckpointLeaf' });
export type AuditCheckpointLeaf = z.infer<typeof auditCheckpointLeaf>;

export const auditCheckpointList = z.array(auditCheckpoint).meta({ id: 'AuditCheckpointList' });
export const auditCheckpointDetail = auditCheckpoint
  .extend({ leaves: z.array(auditCheckpointLeaf).describe('The chain heads it covers, in Merkle order (by request id)') })
  .meta({ id: 'AuditCheckpointDetail' });
export type AuditCheckpointDetail = z.infer<typeof auditCheckpointDetail>;

/** `POST /audit/checkpoints`: no fields (an empty object, or no body). */
export const auditCheckpointCommand = z.strictObject({}).meta({ id: 'AuditCheckpointCommand' });
export type AuditCheckpointCommand = z.infer<typeof auditCheckpointCommand>;

/** What `POST /audit/checkpoints` answers: the checkpoints this call made, and the newest one, which covers every chain head of the tenant. */
export const auditCheckpointRun = z
  .object({
    made: z
      .array(auditCheckpoint)
      .describe(
        'The checkpoints this call made, oldest first: none when the newest one already covered every chain head (a repeated or concurrent call), several when more than 10,000 heads were waiting',
      ),
    latest: auditCheckpoint.describe("The tenant's newest checkpoint, which now covers the head of every chain"),
  })
  .meta({ id: 'AuditCheckpointRun' });
export type AuditCheckpointRun = z.infer<typeof auditCheckpointRun>;

/** The ledger's public signing key, as PEM and as a JWK (RFC 8037), with its id. */
export const auditSigningKey = z
  .object({
    keyId: hash.describe('`sha256:` of the public key in DER (SPKI): the id checkpoints name'),
    algorithm: z.literal('ed25519'),
    publicKey: z.string().min(1).describe('The public key, PEM (SPKI)'),
    jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string().min(1).describe('The public key, base64url') }).describe('The same key as a JWK (RFC 8037)'),
  })
  .meta({ id: 'AuditSigningKey' });
export type AuditSigningKey = z.infer<typeof auditSigningKey>;

export const auditSigningKeys = z
  .object({ keys: z.array(auditSigningKey).describe('The key new checkpoints are signed with; empty when checkpoints are off (no signing key)') })
  .meta({ id: 'AuditSigningKeys' });
export type AuditSigningKeys = z.infer<typeof auditSigningKeys>;
