import type { z } from 'zod';
import {
  captureAccepted,
  type ErrorName,
  intakeAccepted,
  intakePayload,
  type Permission,
  queuePage,
  queueQuery,
  requestDetail,
  timeline,
} from '@dsar/contracts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One public endpoint: where it forwards, who may call it, and its contract.
 * The gateway's routing, authorization and OpenAPI document all come from
 * this table, so they cannot disagree.
 */
export interface GatewayRoute {
  method: HttpMethod;
  /** Path under /api/v1, with `:name` parameters. */
  path: string;
  /** The owning service; the call goes to its `/internal/v1` + path. */
  service: string;
  permission: Permission;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  body?: z.ZodType;
  query?: z.ZodType;
  response: { status: number; schema: z.ZodType; description: string };
  /** Errors the route itself can answer with, beyond the ones every route shares. */
  errors: ErrorName[];
  /**
   * A derived view served by another service than the request's owner: the
   * gateway first reads the request from lifecycle-clock (tenant check, and
   * the newest event id) and has the view wait until it has caught up.
   */
  readYourWrites?: boolean;
}

/** Errors of a command that carries an Idempotency-Key. */
const IDEMPOTENCY_ERRORS: ErrorName[] = ['IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];
const INTAKE_ERRORS: ErrorName[] = ['REQUEST_VALIDATION_FAILED', 'JURISDICTION_UNSUPPORTED', ...IDEMPOTENCY_ERRORS];

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
    description: 'Pages through the caller\'s requests with filters and sorting; the answer echoes the effective values and the total.',
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
  },
];

/** Errors any authenticated route can answer with. */
export const COMMON_ERRORS: ErrorName[] = [
  'AUTHENTICATION_REQUIRED',
  'PERMISSION_DENIED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'INTERNAL_ERROR',
];

/** Errors any route with a JSON body can answer with. */
export const BODY_ERRORS: ErrorName[] = ['REQUEST_BODY_INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
