import {
  captureAccepted,
  type ErrorName,
  intakeAccepted,
  intakePayload,
  queuePage,
  queueQuery,
  requestDetail,
  requestDetailQuery,
  requestorReveal,
  requestorRevealCommand,
  timeline,
} from '@dsar/contracts';
import { IDEMPOTENCY_ERRORS } from './route-errors';
import type { GatewayRoute } from './route-types';

const INTAKE_ERRORS: ErrorName[] = ['REQUEST_VALIDATION_FAILED', 'JURISDICTION_UNSUPPORTED', 'CLOCK_MODE_NOT_ALLOWED', 'RECEIPT_TIME_INVALID', ...IDEMPOTENCY_ERRORS];

/** Public routes of a request as a whole: its submission (intake-gateway), the queue, its detail and its timeline (docs/intake.md, docs/lifecycle.md). */
export const REQUEST_ROUTES: readonly GatewayRoute[] = [
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
    description:
      "Pages through the caller's requests with filters (status, `atRiskDays`, request type, jurisdiction, channel, receipt range, reference, triage, `waitingOnSystems`, `duplicate`, and `identity`: the person's email address, phone number or account id, matched exactly through the blind index, docs/identity.md; all of them apply together) and sorting; the answer echoes the effective values and the total, exact unless `totalExact` says otherwise (a large result of a filter the request counters do not keep, docs/api/README.md#paging-the-queue).",
    tag: 'Requests',
    query: queueQuery,
    response: { status: 200, schema: queuePage, description: 'A page of the queue.' },
    errors: ['REQUEST_VALIDATION_FAILED', 'IDENTITY_NOT_RECOGNISED'],
  },
  {
    method: 'GET',
    path: '/requests/:idOrReference',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'getRequest',
    summary: 'A request in detail, by its id or its reference',
    description:
      "By the request id or the short reference operators see (`DSAR-1A2B3C4D`, in any case): a reference answers exactly what the id does, directly, without a redirect. Another tenant's (or workspace's) request is 404 by either; a value that starts with `DSAR-` and is not a short reference (a tagged one, a wrong length) is 400; a reference two requests share is 409 `REQUEST_REFERENCE_AMBIGUOUS` (`GET /requests?reference=` lists them). The requestor's identities are in clear by default; `requestor=masked` masks them (the console's view), and `POST /requests/{id}/requestor/reveal` shows them with a recorded reason (docs/lifecycle.md#the-requestor-masked-and-revealed).",
    tag: 'Requests',
    query: requestDetailQuery,
    response: { status: 200, schema: requestDetail, description: 'The request.' },
    errors: ['RESOURCE_NOT_FOUND', 'REQUEST_VALIDATION_FAILED', 'REQUEST_REFERENCE_AMBIGUOUS'],
  },
  {
    method: 'POST',
    path: '/requests/:id/requestor/reveal',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'revealRequestor',
    summary: "The requestor's identities in clear, with a recorded reason",
    description:
      'Answers what `GET /requests/{id}?requestor=masked` hides: the requestor block, the intake contact and the account ids of `account_id` evidence, in clear. Each call is recorded with the caller and its `reason` as `dsar.request.requestor_revealed.v1` (which identities, never their values; the reason as a salted hash on the audit chain), in the same transaction, and shows on the timeline as `request_requestor_revealed`. Whoever may read the request may reveal, auditors included: the default detail has always shown these identities to them (docs/security.md#revealing-a-requestor). In any status; the request itself does not change.',
    tag: 'Requests',
    body: requestorRevealCommand,
    response: { status: 200, schema: requestorReveal, description: 'The identities in clear; the reveal is recorded.' },
    errors: ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND'],
    idempotencyExempt: 'A replayed answer would show the identities again without a record of the reveal: each call reveals, and is recorded as a reveal of its own, a retry too.',
  },
  {
    method: 'GET',
    path: '/requests/:id/timeline',
    service: 'audit-ledger',
    permission: 'requests:read',
    operationId: 'getRequestTimeline',
    summary: 'Every domain event of a request, oldest first',
    description:
      'Each event as `{id, eventType, createdAt, payload}`. `eventType` is the public name of the event type, as in the delivery log: the CloudEvents type without `dsar.` and its version (`request_created` for `dsar.request.created.v1`). Kafka, the audit chain and its export (`GET /requests/:id/audit/export`) keep the CloudEvents type.',
    tag: 'Requests',
    response: { status: 200, schema: timeline, description: 'The timeline, starting with `request_created`.' },
    errors: ['RESOURCE_NOT_FOUND'],
    readYourWrites: true,
    outlivesRequest: true,
  },
];
