import type { ErrorName } from '@dsar/contracts';

/** Error lists several area files of the route table share, and the ones the OpenAPI document adds to every route. */

/** Errors of a command that carries an Idempotency-Key. */
export const IDEMPOTENCY_ERRORS: ErrorName[] = ['IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];
/** Errors of a change to a request's clock. */
export const CLOCK_CHANGE_ERRORS: ErrorName[] = ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND', 'LIFECYCLE_TRANSITION_DISALLOWED', ...IDEMPOTENCY_ERRORS];
/** Errors of a workflow command (docs/lifecycle.md). */
export const LIFECYCLE_ERRORS: ErrorName[] = CLOCK_CHANGE_ERRORS;

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
