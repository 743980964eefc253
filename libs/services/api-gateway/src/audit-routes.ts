import {
  AUDIT_EXPORT_MEDIA_TYPES,
  AUDIT_HEAD_SEQUENCE_HEADER,
  AUDIT_ROOT_HASH_HEADER,
  auditCheckpointDetail,
  auditCheckpointList,
  auditCheckpointQuery,
  auditExport,
  auditExportQuery,
  auditVerifyCommand,
  auditVerifyResult,
} from '@dsar/contracts';
import type { GatewayRoute } from './route-types';

/** Public routes of audit-ledger: a request's audit chain, its export and verification, and the tenant's signed checkpoints (docs/audit.md). */
export const AUDIT_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/requests/:id/audit/export',
    service: 'audit-ledger',
    permission: 'audit:export',
    operationId: 'exportAuditChain',
    summary: "Export a request's audit chain",
    description:
      "The request's hash chain up to its head, with `rootHash` (the head's hash). As JSON (202): `events` holds the entries; with `format=csv`, `content` also holds the CSV file. With `Accept: application/x-ndjson` or `text/csv`: a streamed file (200), one entry per line or row, with the head in `X-Audit-Root-Hash`. Checking an export with openssl and jq: docs/audit.md.",
    tag: 'Audit',
    query: auditExportQuery,
    response: { status: 202, schema: auditExport, description: 'The chain as JSON.' },
    file: {
      status: 200,
      mediaTypes: Object.values(AUDIT_EXPORT_MEDIA_TYPES),
      description:
        "The chain as a streamed file: JSON Lines (each line the RFC 8785 JSON of one entry) or CSV (RFC 4180, header row; a cell a spreadsheet could run as a formula starts with `'`, docs/audit.md).",
      headers: {
        [AUDIT_ROOT_HASH_HEADER]: 'The hash of the chain head the file ends with.',
        [AUDIT_HEAD_SEQUENCE_HEADER]: 'The sequence of that head.',
      },
    },
    errors: ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND'],
    readYourWrites: true,
    outlivesRequest: true,
  },
  {
    method: 'POST',
    path: '/requests/:id/audit/verify',
    service: 'audit-ledger',
    permission: 'audit:verify',
    operationId: 'verifyAuditChain',
    summary: "Verify a request's audit chain against a hash you hold",
    description:
      'Recomputes the chain from its start up to `sequence` and compares the entry there with `hash` (and `prevHash`). `status` is `verified`, `tampered` (the stored chain no longer holds together), `hash_mismatch` (it does, but not with your hash), `sequence_not_found` or `purged`; `mismatches` lists each finding with its event id (docs/audit.md#verify).',
    tag: 'Audit',
    body: auditVerifyCommand,
    response: { status: 202, schema: auditVerifyResult, description: "The verification's outcome." },
    errors: ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND'],
    readYourWrites: true,
    outlivesRequest: true,
  },
  {
    method: 'GET',
    path: '/audit/checkpoints',
    service: 'audit-ledger',
    permission: 'audit:verify',
    operationId: 'listAuditCheckpoints',
    tenantWide: true,
    summary: "The tenant's signed audit checkpoints, newest first",
    description:
      "Each is a Merkle root over the chain heads that changed since the one before, linked to its root and signed with Ed25519 (docs/audit.md#checkpoints). They cover every workspace's chains.",
    tag: 'Audit',
    query: auditCheckpointQuery,
    response: { status: 200, schema: auditCheckpointList, description: 'The checkpoints.' },
    errors: ['REQUEST_VALIDATION_FAILED'],
  },
  {
    method: 'GET',
    path: '/audit/checkpoints/:checkpointId',
    service: 'audit-ledger',
    permission: 'audit:verify',
    operationId: 'getAuditCheckpoint',
    tenantWide: true,
    summary: 'A signed audit checkpoint with its leaves',
    description: 'The checkpoint and the chain heads it covers, in Merkle order, to recompute its root.',
    tag: 'Audit',
    response: { status: 200, schema: auditCheckpointDetail, description: 'The checkpoint and its leaves.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
];
