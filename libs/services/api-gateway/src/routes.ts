import { z } from 'zod';
import {
  acknowledgementCommand,
  appealAccepted,
  appealCommand,
  appealDecided,
  appealDecisionCommand,
  appealList,
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
  authorityApproveCommand,
  authorityRejectCommand,
  authoritySubmitCommand,
  captureAccepted,
  clarificationReceiveCommand,
  clarificationRequestCommand,
  closureCommand,
  lifecycleResult,
  refusalCommand,
  requestorCommand,
  clockChangeResult,
  clockExplanation,
  extensionCommand,
  pauseCommand,
  resumeCommand,
  type ErrorName,
  intakeAccepted,
  intakePayload,
  type Permission,
  policyListQuery,
  policyPackList,
  policyPackQuery,
  policyPackSchema,
  queuePage,
  queueQuery,
  requestDetail,
  timeline,
  EVIDENCE_UPLOAD_HEADERS,
  MEDIA_TYPE_HEADER_PATTERN,
  evidenceUploaded,
  VERIFICATION_LEVELS,
  verificationApproveCommand,
  verificationCaseView,
  verificationDecided,
  verificationEvidenceCommand,
  verificationEvidenceRecorded,
  verificationRejectCommand,
  verificationRequestCommand,
  verificationRequested,
} from '@dsar/contracts';

import { DELIVERY_ROUTES } from './delivery-routes';
import { FULFILMENT_ROUTES } from './fulfilment-routes';
import { NOTIFICATION_ROUTES } from './notification-routes';
import { POLICY_ADMIN_ROUTES } from './policy-routes';
import { RETENTION_ROUTES } from './retention-routes';
import { WEBHOOK_ROUTES } from './webhook-routes';
import { CLOCK_CHANGE_ERRORS, IDEMPOTENCY_ERRORS, LIFECYCLE_ERRORS } from './route-errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request header an upload route takes, by its name (`X-Evidence-Kind`). */
export interface UploadHeader {
  /** A call without it is refused (400 REQUEST_VALIDATION_FAILED) before a byte of the body is read. */
  required: boolean;
  description: string;
  /** The value's form: checked by the gateway before the upload starts (400), and published. The service checks again. */
  schema?: z.ZodType;
}

/** A request header a route passes on to its service (`passHeaders`). */
export interface PassedHeader {
  /** Published as required; a call without it is still forwarded, for the service to answer. */
  required: boolean;
  description: string;
}

/** What a route answers with. A download route answers with its file, every other one with JSON. */
type RouteAnswer =
  | { response: { status: number; schema: z.ZodType; description: string }; download?: undefined }
  | {
      response?: undefined;
      /**
       * The route always answers with a file the service streams (no Accept
       * negotiation): the gateway passes the client's `Range`, `If-None-Match`
       * and `If-Range` on, and streams back a 200, 206, 304 or 416 with its
       * `Content-Type`, `Content-Length`, `Content-Disposition`, `ETag`,
       * `Accept-Ranges`, `Content-Range` and `Cache-Control`, and the headers
       * named here. A problem (JSON) is returned as for any route. HEAD answers
       * the headers of the GET.
       */
      download: { status: 200; description: string; headers: Readonly<Record<string, string>> };
    };

/**
 * One public endpoint: where it forwards, who may call it, and its contract.
 * The gateway's routing, authorization and OpenAPI document all come from
 * this table, so they cannot disagree.
 */
export type GatewayRoute = RouteAnswer & {
  method: HttpMethod;
  /** Path under /api/v1, with `:name` parameters. */
  path: string;
  /** The owning service; the call goes to its `/internal/v1` + path. */
  service: string;
  /** Who may call it; `public` for a provider's webhook only (`webhook`), which its signature authenticates instead of a token. */
  permission: Permission | typeof PUBLIC;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  body?: z.ZodType;
  /** The JSON body may be left out (every field of `body` has a default); published as a request body that is not required. */
  bodyOptional?: boolean;
  query?: z.ZodType;
  /** Errors the route itself can answer with, beyond the ones every route shares. */
  errors: ErrorName[];
  /**
   * A derived view served by another service than the request's owner: the
   * gateway first reads the request from lifecycle-clock (tenant check, and
   * the newest event id) and has the view wait until it has caught up.
   */
  readYourWrites?: boolean;
  /**
   * With `readYourWrites`: the view outlives the request's record (the audit chain, after retention purged the
   * request in lifecycle-clock). When the owner no longer knows the request, a tenant-wide caller still gets the
   * view, which answers 404 itself when it holds nothing for the caller's tenant; a caller confined to a
   * workspace gets the owner's 404, since the request's workspace can no longer be checked.
   */
  outlivesRequest?: boolean;
  /**
   * The route acts on (or reveals) the whole tenant, not one workspace: a tenant-wide setting, a report over every
   * workspace, or a resource no workspace owns. A caller confined to a workspace is refused with 403
   * PERMISSION_DENIED after its role check and before the call is forwarded; the owning service refuses it too.
   * A route without it acts only within the caller's workspace (docs/security.md, "Tenancy and workspaces").
   */
  tenantWide?: true;
  /**
   * The route also answers with a streamed file when the client's Accept
   * names one of these media types; the gateway passes the stream through
   * without holding it. With `ranges`, the file is served like a `download`:
   * the client's `Range`, `If-None-Match` and `If-Range` go to the service,
   * and its 200, 206, 304 or 416 comes back with the download headers
   * (`Content-Length`, `Content-Range`, `ETag`, …).
   */
  file?: { status: number; mediaTypes: readonly string[]; description: string; headers: Readonly<Record<string, string>>; ranges?: boolean };
  /**
   * Request headers of the client the gateway passes on to the service, by
   * name: `X-` headers of the route's own (no other client header reaches a
   * service), published as header parameters. The service checks them; the
   * gateway only passes what was sent.
   */
  passHeaders?: Readonly<Record<string, PassedHeader>>;
  /**
   * The body is a file of any size (a POST, PUT or PATCH without `body`),
   * streamed to the service as it arrives, never held by the gateway, always
   * as `application/octet-stream` (the file's own type is one of the headers
   * named here). Passed on: `Content-Length` when the client sent one, and the headers named here,
   * which must be `X-` headers of the route's own (no other client header
   * is). A body with a `Content-Encoding`, or labelled as JSON (the type of
   * commands, not of files), is refused (415). An upload that
   * stops moving for UPLOAD_IDLE_TIMEOUT_MS is given up (504); there is no
   * total deadline.
   */
  upload?: { headers: Readonly<Record<string, UploadHeader>>; description: string };
  /**
   * A provider's webhook (docs/webhooks.md): public (`permission: 'public'`:
   * no token, no per-caller rate limit), because the owning service checks
   * the provider's signature over the exact bytes of the body. So the body
   * is streamed to the service untouched, as `application/octet-stream`,
   * never parsed or re-encoded here; the client must send it as JSON
   * (415 otherwise) without a Content-Encoding (415). The headers named
   * here (the signature's, lower case) are passed on when sent, and no
   * other client header is. `body` is what the document publishes.
   */
  webhook?: { description: string; body: z.ZodType; headers: Readonly<Record<string, PassedHeader>> };
};

/** The permission of a route that takes no token: a provider's webhook, authenticated by its signature. */
export const PUBLIC = 'public';

export { IDEMPOTENCY_ERRORS, LIFECYCLE_ERRORS };
const INTAKE_ERRORS: ErrorName[] = ['REQUEST_VALIDATION_FAILED', 'JURISDICTION_UNSUPPORTED', 'CLOCK_MODE_NOT_ALLOWED', 'RECEIPT_TIME_INVALID', ...IDEMPOTENCY_ERRORS];

/** A workflow command on one request, answered with the spec's lifecycle response. */
function lifecycleRoute(
  path: string,
  operationId: string,
  summary: string,
  description: string,
  body: z.ZodType,
  errors: ErrorName[] = [],
  method: HttpMethod = 'POST',
): GatewayRoute {
  return {
    method,
    path: `/requests/:id${path}`,
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId,
    summary,
    description,
    tag: 'Lifecycle',
    body,
    response: { status: 202, schema: lifecycleResult, description: 'The request\'s status and due time after the step.' },
    errors: [...LIFECYCLE_ERRORS, ...errors],
  };
}

export const ROUTES: readonly GatewayRoute[] = [
  {
    method: 'POST',
    path: '/requests',
    service: 'intake-gateway',
    permission: 'requests:create',
    operationId: 'submitRequest',
    summary: 'Submit a data subject request',
    description:
      'Records a request from an intake channel. Without `requestType`, the type is inferred from `intakeSource.rawText` (docs/intake.md). The legal clock starts from `intakeSource.receivedAt`.',
    tag: 'Requests',
    body: intakePayload,
    response: { status: 202, schema: intakeAccepted, description: 'The request was recorded.' },
    errors: INTAKE_ERRORS,
  },
  {
    method: 'POST',
    path: '/requests/capture',
    service: 'intake-gateway',
    permission: 'requests:create',
    operationId: 'captureRequest',
    summary: 'Capture a request received elsewhere, and get its due time',
    description: 'Like `POST /requests`, and the answer also carries `dueAt`, counted by the legal clock from `intakeSource.receivedAt` (the provenance time).',
    tag: 'Requests',
    body: intakePayload,
    response: { status: 202, schema: captureAccepted, description: 'The request was recorded and its clock started.' },
    errors: INTAKE_ERRORS,
  },
  {
    method: 'GET',
    path: '/requests',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'listRequests',
    summary: 'The request queue',
    description: 'Pages through the caller\'s requests with filters and sorting; the answer echoes the effective values and the total, exact unless `totalExact` says otherwise (only for a large at-risk result).',
    tag: 'Requests',
    query: queueQuery,
    response: { status: 200, schema: queuePage, description: 'A page of the queue.' },
    errors: ['REQUEST_VALIDATION_FAILED'],
  },
  {
    method: 'GET',
    path: '/requests/:id',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'getRequest',
    summary: 'A request in detail',
    tag: 'Requests',
    response: { status: 200, schema: requestDetail, description: 'The request.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'GET',
    path: '/requests/:id/timeline',
    service: 'audit-ledger',
    permission: 'requests:read',
    operationId: 'getRequestTimeline',
    summary: 'Every domain event of a request, oldest first',
    tag: 'Requests',
    response: { status: 200, schema: timeline, description: 'The timeline, starting with `request_created`.' },
    errors: ['RESOURCE_NOT_FOUND'],
    readYourWrites: true,
    outlivesRequest: true,
  },
  {
    method: 'GET',
    path: '/requests/:id/audit/export',
    service: 'audit-ledger',
    permission: 'audit:export',
    operationId: 'exportAuditChain',
    summary: 'Export a request\'s audit chain',
    description:
      'The request\'s hash chain up to its head, with `rootHash` (the head\'s hash). As JSON (202): `events` holds the entries; with `format=csv`, `content` also holds the CSV file. With `Accept: application/x-ndjson` or `text/csv`: a streamed file (200), one entry per line or row, with the head in `X-Audit-Root-Hash`. Checking an export with openssl and jq: docs/audit.md.',
    tag: 'Audit',
    query: auditExportQuery,
    response: { status: 202, schema: auditExport, description: 'The chain as JSON.' },
    file: {
      status: 200,
      mediaTypes: Object.values(AUDIT_EXPORT_MEDIA_TYPES),
      description: 'The chain as a streamed file: JSON Lines (each line the RFC 8785 JSON of one entry) or CSV (RFC 4180, header row; a cell a spreadsheet could run as a formula starts with `\'`, docs/audit.md).',
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
    summary: 'Verify a request\'s audit chain against a hash you hold',
    description:
      'Recomputes the chain from its start up to `sequence` and compares the entry there with `hash` (and `prevHash`). `status` is `verified`, `tampered` (the stored chain no longer holds together), `hash_mismatch` (it does, but not with your hash), `sequence_not_found` or `purged`; `mismatches` lists each finding with its event id (docs/audit.md#verify).',
    tag: 'Audit',
    body: auditVerifyCommand,
    response: { status: 202, schema: auditVerifyResult, description: 'The verification\'s outcome.' },
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
    summary: 'The tenant\'s signed audit checkpoints, newest first',
    description: 'Each is a Merkle root over the chain heads that changed since the one before, linked to its root and signed with Ed25519 (docs/audit.md#checkpoints). They cover every workspace\'s chains.',
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
  {
    method: 'GET',
    path: '/requests/:id/clock/explain',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'explainRequestClock',
    summary: 'How the request\'s deadline was computed',
    description:
      'The base deadline, every pause and extension and what it did, the segments of the clock, the acknowledgement, refusal-notice and extension-notice deadlines, the rule applied, and the computation in words. `finalDueAt` is the request\'s `dueAt`. Model: docs/clock.md.',
    tag: 'Clock',
    response: { status: 200, schema: clockExplanation, description: 'The clock explanation.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/requests/:id/extensions',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'extendRequestDeadline',
    summary: 'Extend the response deadline',
    description:
      'Extends the deadline as the request\'s pinned pack allows: inside its notice window, within its maximum, with reasons where it requires them. Without an amount the extension takes what is left of the maximum. Emits `dsar.request.deadline_extended.v1`, from which the requester is told.',
    tag: 'Clock',
    body: extensionCommand,
    bodyOptional: true,
    response: { status: 202, schema: clockChangeResult, description: 'The deadline was extended.' },
    errors: [...CLOCK_CHANGE_ERRORS, 'EXTENSION_NOT_AVAILABLE', 'EXTENSION_EXCEEDS_MAXIMUM', 'EXTENSION_TERMS_INVALID', 'EXTENSION_NOTICE_PERIOD_ELAPSED'],
  },
  {
    method: 'POST',
    path: '/requests/:id/clock/pauses',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'pauseRequestClock',
    summary: 'Pause the legal clock',
    description:
      'Records a pause for identity verification, clarification or a fee that happens outside the workflow endpoints (e.g. a fee asked for by letter). The pack decides what it does: restart, suspend, or nothing (`ignore`). `at` may be in the past, never before the latest clock event.',
    tag: 'Clock',
    body: pauseCommand,
    response: { status: 202, schema: clockChangeResult, description: 'The clock is paused.' },
    errors: [...CLOCK_CHANGE_ERRORS, 'CLOCK_ALREADY_PAUSED', 'CLOCK_EVENT_OUT_OF_ORDER'],
  },
  {
    method: 'POST',
    path: '/requests/:id/clock/resume',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'resumeRequestClock',
    summary: 'End the clock\'s pause',
    description: 'Ends the open pause (e.g. when the identity document or the payment arrived, `at`), and applies its rule to the deadline.',
    tag: 'Clock',
    body: resumeCommand,
    bodyOptional: true,
    response: { status: 202, schema: clockChangeResult, description: 'The clock runs again; `dueAt` is the new deadline.' },
    errors: [...CLOCK_CHANGE_ERRORS, 'CLOCK_NOT_PAUSED', 'CLOCK_EVENT_OUT_OF_ORDER'],
  },
  { ...lifecycleRoute(
    '/acknowledgements',
    'acknowledgeRequest',
    'Record that the requester was told of receipt',
    'Once per request, in any open status; a `received` request moves to `in_progress`. Stops the acknowledgement deadline the pack may set (`acknowledgementDueAt`).',
    acknowledgementCommand,
  ), bodyOptional: true },
  lifecycleRoute(
    '/clarifications/request',
    'requestClarification',
    'Ask the requester to clarify the request',
    'From `received` or `in_progress` to `clarification_pending`. The clock pauses for clarification and the pack decides what the pause does (docs/clock.md); a clock already paused (e.g. for a fee) stays as it is.',
    clarificationRequestCommand,
    ['CLOCK_EVENT_OUT_OF_ORDER'],
  ),
  { ...lifecycleRoute(
    '/clarifications/receive',
    'receiveClarification',
    'Record the requester\'s clarification',
    'From `clarification_pending` back to `in_progress`; the clock resumes at `receivedAt` (default now).',
    clarificationReceiveCommand,
    ['CLOCK_EVENT_OUT_OF_ORDER'],
  ), bodyOptional: true },
  { ...lifecycleRoute(
    '/refusals',
    'refuseRequest',
    'Refuse the request',
    'From any open status to `refused`, with a reason from the documented list (docs/lifecycle.md), the message the requester is told and the internal rationale. All three are optional: the reason defaults to `other` and the message to a notice of the reason that names the right to complain to the supervisory authority.',
    refusalCommand,
  ), bodyOptional: true },
  { ...lifecycleRoute(
    '/closures',
    'closeRequest',
    'Close the request',
    'From any other status to `closed`. An open request closed without a reason is `withdrawn`; a fulfilled or refused one is `completed`.',
    closureCommand,
  ), bodyOptional: true },
  lifecycleRoute(
    '/requestor',
    'replaceRequestor',
    'Replace the requestor snapshot',
    'Replaces the requestor as a whole (`type` required) on an open request.',
    requestorCommand,
    [],
    'PUT',
  ),
  lifecycleRoute(
    '/authority/submit',
    'submitAuthority',
    'Submit evidence of the requestor\'s authority',
    'Records the evidence that the requestor may act for the data subject (e.g. a power of attorney), replacing any earlier submission; `status` is normally `submitted`.',
    authoritySubmitCommand,
  ),
  { ...lifecycleRoute(
    '/authority/approve',
    'approveAuthority',
    'Approve submitted authority evidence',
    'Submitted evidence becomes `verified` (with `verifiedAt`). Evidence in any other status answers 409 `AUTHORITY_NOT_SUBMITTED`.',
    authorityApproveCommand,
    ['AUTHORITY_NOT_SUBMITTED'],
  ), bodyOptional: true },
  { ...lifecycleRoute(
    '/authority/reject',
    'rejectAuthority',
    'Reject submitted authority evidence',
    'Submitted evidence becomes `rejected`. Evidence in any other status answers 409 `AUTHORITY_NOT_SUBMITTED`.',
    authorityRejectCommand,
    ['AUTHORITY_NOT_SUBMITTED'],
  ), bodyOptional: true },
  {
    method: 'POST',
    path: '/requests/:id/appeals',
    service: 'lifecycle-clock',
    permission: 'requests:create',
    operationId: 'fileAppeal',
    summary: 'Appeal the outcome of a request',
    description:
      'Only for a `refused`, `fulfilled` or `closed` request, one open appeal at a time. Only `message` and `grounds` are accepted; anything else is a 400. The appeal must be decided by its `dueAt`, on the pack\'s appeal clock (docs/lifecycle.md).',
    tag: 'Appeals',
    body: appealCommand,
    response: { status: 202, schema: appealAccepted, description: 'The appeal was filed.' },
    errors: [...LIFECYCLE_ERRORS, 'APPEAL_ALREADY_OPEN'],
  },
  {
    method: 'GET',
    path: '/requests/:id/appeals',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'listAppeals',
    summary: 'The appeals of a request, oldest first',
    tag: 'Appeals',
    response: { status: 200, schema: appealList, description: 'The appeals, with their decisions.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'POST',
    path: '/requests/:id/appeals/:appealId/decide',
    service: 'lifecycle-clock',
    permission: 'requests:act',
    operationId: 'decideAppeal',
    summary: 'Decide an appeal',
    description:
      '`approve` and `partial` reopen the request (`in_progress`) on the pack\'s appeal clock; `deny` leaves it as it is. A decision is final: deciding again answers 409 `APPEAL_ALREADY_DECIDED`.',
    tag: 'Appeals',
    body: appealDecisionCommand,
    response: { status: 202, schema: appealDecided, description: 'The appeal was decided.' },
    errors: [...LIFECYCLE_ERRORS, 'APPEAL_ALREADY_DECIDED'],
  },
  {
    method: 'POST',
    path: '/requests/:id/verification/request',
    service: 'verification',
    permission: 'requests:act',
    operationId: 'requestVerification',
    summary: 'Open an identity verification case',
    description:
      'Opens a case (level by request type unless given, method `manual` unless given) and moves the request to `verification_pending`. The clock pauses as the pack says: GDPR packs suspend it, GB restarts it on the day identity is confirmed, US-CA keeps it running (docs/verification.md). Asking again while a case is pending returns that case and pauses nothing twice. From `fulfilled`, `refused` or `closed`: 409.',
    tag: 'Verification',
    body: verificationRequestCommand,
    bodyOptional: true,
    response: { status: 202, schema: verificationRequested, description: 'The request waits for its verification case.' },
    errors: [...LIFECYCLE_ERRORS],
  },
  {
    method: 'POST',
    path: '/requests/:id/verification/evidence',
    service: 'verification',
    permission: 'requests:act',
    operationId: 'recordVerificationEvidence',
    summary: 'Record identity evidence',
    description:
      'Records evidence made of files uploaded to this request (`{type: "upload", artifactKey}`) and of evidence held elsewhere (`{type: "external", system, reference, sha256?}`). An `artifactKey` that names no file of this request is a 422.',
    tag: 'Verification',
    body: verificationEvidenceCommand,
    response: { status: 202, schema: verificationEvidenceRecorded, description: 'The evidence was recorded, pending review.' },
    errors: [...LIFECYCLE_ERRORS, 'VERIFICATION_EVIDENCE_UNKNOWN'],
  },
  {
    method: 'POST',
    path: '/requests/:id/verification/evidence/upload',
    service: 'verification',
    permission: 'requests:act',
    operationId: 'uploadVerificationEvidence',
    summary: 'Upload an identity evidence file',
    description:
      'The body is the file (any size up to EVIDENCE_MAX_BYTES, default 20 MiB), streamed to storage and encrypted at rest; its sha256 and size are recorded. Allowed types (EVIDENCE_CONTENT_TYPES): PDF and images by default; without `x-evidence-content-type` the type is recognized from the first bytes, and with it the first bytes must carry that type\'s signature (422 `EVIDENCE_CONTENT_MISMATCH` otherwise). A body of 0 bytes is a 400; a short file is judged by its type like any other. An upload is not idempotent: a retry stores a second file.',
    tag: 'Verification',
    upload: {
      description: 'The evidence file\'s bytes.',
      headers: {
        [EVIDENCE_UPLOAD_HEADERS.filename]: { required: false, description: 'The file\'s name, URL-encoded (UTF-8); directories and control characters are removed, at most 255 bytes. Default `evidence`.' },
        [EVIDENCE_UPLOAD_HEADERS.contentType]: {
          required: false,
          description: 'The file\'s media type, e.g. `application/pdf`; recognized from its first bytes when absent. It must be on the allow-list (EVIDENCE_CONTENT_TYPES), else 415, and the file\'s first bytes must be of that type, else 422.',
          schema: z.string().regex(MEDIA_TYPE_HEADER_PATTERN, 'must be a media type, e.g. application/pdf'),
        },
        [EVIDENCE_UPLOAD_HEADERS.level]: { required: false, description: 'The assurance level the evidence is for: `reasonable` or `enhanced`; default the case\'s.', schema: z.enum(VERIFICATION_LEVELS) },
      },
    },
    response: { status: 202, schema: evidenceUploaded, description: 'The file was stored as a new piece of evidence.' },
    errors: ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND', 'LIFECYCLE_TRANSITION_DISALLOWED', 'EVIDENCE_UPLOAD_EMPTY', 'PAYLOAD_TOO_LARGE', 'EVIDENCE_CONTENT_TYPE_NOT_ALLOWED', 'EVIDENCE_CONTENT_MISMATCH', 'UNSUPPORTED_MEDIA_TYPE', 'CONTENT_ENCODING_UNSUPPORTED'],
  },
  {
    method: 'POST',
    path: '/requests/:id/verification/approve',
    service: 'verification',
    permission: 'requests:act',
    operationId: 'approveVerification',
    summary: 'Approve identity verification',
    description: 'Only from `verification_pending`. The request is `in_progress` again and the clock resumes (or restarts) as the pack says; who decided, when and how are recorded.',
    tag: 'Verification',
    body: verificationApproveCommand,
    bodyOptional: true,
    response: { status: 202, schema: verificationDecided, description: 'The request is in progress.' },
    errors: [...LIFECYCLE_ERRORS],
  },
  {
    method: 'POST',
    path: '/requests/:id/verification/reject',
    service: 'verification',
    permission: 'requests:act',
    operationId: 'rejectVerification',
    summary: 'Reject identity verification',
    description: 'Only from `verification_pending`. The request is refused with reason `identity_not_verified`; who decided, when and why are recorded.',
    tag: 'Verification',
    body: verificationRejectCommand,
    bodyOptional: true,
    response: { status: 202, schema: verificationDecided, description: 'The request is refused.' },
    errors: [...LIFECYCLE_ERRORS],
  },
  {
    method: 'GET',
    path: '/requests/:id/verification-case',
    service: 'verification',
    permission: 'requests:read',
    operationId: 'getVerificationCase',
    summary: 'The request\'s verification case',
    description: 'The newest case with its evidence (metadata, never bytes), reminders and decision.',
    tag: 'Verification',
    response: { status: 200, schema: verificationCaseView, description: 'The case.' },
    errors: ['RESOURCE_NOT_FOUND', 'VERIFICATION_CASE_NOT_FOUND'],
    readYourWrites: true,
  },
  {
    method: 'GET',
    path: '/requests/:id/verification/evidence/:artifactKey/download',
    service: 'verification',
    permission: 'evidence:read',
    operationId: 'downloadVerificationEvidence',
    summary: 'Download an identity evidence file',
    description:
      'The file\'s bytes, decrypted as they stream, with `Content-Disposition: attachment` (RFC 6266), `ETag` (its sha256) and `Range` support: `If-None-Match` with the current ETag answers 304 without a body, and a `Range` whose `If-Range` is not the current ETag gets the whole file (200). Never cached. Only operators and admins.',
    tag: 'Verification',
    download: { status: 200, description: 'The evidence file.', headers: {} },
    errors: ['RESOURCE_NOT_FOUND', 'EVIDENCE_FILE_SHREDDED'],
    readYourWrites: true,
  },
  ...FULFILMENT_ROUTES,
  ...DELIVERY_ROUTES,
  ...NOTIFICATION_ROUTES,
  ...RETENTION_ROUTES,
  ...WEBHOOK_ROUTES,
  ...POLICY_ADMIN_ROUTES,
  {
    method: 'GET',
    path: '/policies',
    service: 'policy-registry',
    permission: 'policies:read',
    operationId: 'listPolicies',
    summary: 'The policy packs the caller may use',
    description:
      'What the caller\'s new requests use today, sorted by `packId`: each built-in pack at the version in force today among the releases the tenant is on, and each custom pack activated for the caller\'s tenant or workspace (`source: custom`, `activatedFor`). A request pins the version in force on its own day of receipt (docs/policy-packs/README.md). Filter by a jurisdiction code (any code a pack covers, case-insensitive) or a pack id.',
    tag: 'Policies',
    query: policyListQuery,
    response: { status: 200, schema: policyPackList, description: 'The matching packs; empty when none matches.' },
    errors: ['REQUEST_VALIDATION_FAILED'],
  },
  {
    method: 'GET',
    path: '/policies/:packId',
    service: 'policy-registry',
    permission: 'policies:read',
    operationId: 'getPolicyPack',
    summary: 'A policy pack document',
    description:
      'The full pack: its jurisdictions, deadline rules per request type, appeal rule, citations and notes. The version in force today unless `version` names a published one (a request pins `policyPack` and `policyVersion`). A custom pack of the caller\'s tenant is found by its name.',
    tag: 'Policies',
    query: policyPackQuery,
    response: { status: 200, schema: policyPackSchema, description: 'The pack document (JSON Schema: docs/policy-packs/policy-pack.schema.json).' },
    errors: ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND'],
  },
];

/** Errors any public route (a provider's webhook) can answer with: no token, so neither 401/403 of a caller nor a caller's rate limit; the webhook budget of the client's address (429). */
export const PUBLIC_COMMON_ERRORS: ErrorName[] = ['URI_TOO_LONG', 'REQUEST_PATH_INVALID', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'INTERNAL_ERROR'];

/** Errors any authenticated route can answer with. */
export const COMMON_ERRORS: ErrorName[] = [
  'URI_TOO_LONG',
  'REQUEST_PATH_INVALID',
  'AUTHENTICATION_REQUIRED',
  'PERMISSION_DENIED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'INTERNAL_ERROR',
];

/** Errors any route with a JSON body can answer with. */
export const BODY_ERRORS: ErrorName[] = ['REQUEST_BODY_INVALID_JSON', 'REQUEST_BODY_ENCODING_INVALID', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'CONTENT_ENCODING_UNSUPPORTED'];
