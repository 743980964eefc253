import { captureAccepted, type ErrorName, intakeAccepted, intakePayload, queuePage, queueQuery, requestDetail, timeline } from '@dsar/contracts';
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
      "Pages through the caller's requests with filters and sorting; the answer echoes the effective values and the total, exact unless `totalExact` says otherwise (only for a large at-risk result).",
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
];
