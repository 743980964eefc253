import type { ErrorName } from '@dsar/contracts';

/**
 * Error lists routes share, in a module of their own: the route tables of
 * fulfilment-routes.ts and delivery-routes.ts are imported by routes.ts, so
 * they cannot take values from it while it loads (routes.ts re-exports these).
 */

/** Errors of a command that carries an Idempotency-Key. */
export const IDEMPOTENCY_ERRORS: ErrorName[] = ['IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];
/** Errors of a change to a request's clock. */
export const CLOCK_CHANGE_ERRORS: ErrorName[] = ['REQUEST_VALIDATION_FAILED', 'RESOURCE_NOT_FOUND', 'LIFECYCLE_TRANSITION_DISALLOWED', ...IDEMPOTENCY_ERRORS];
/** Errors of a workflow command (docs/lifecycle.md). */
export const LIFECYCLE_ERRORS: ErrorName[] = CLOCK_CHANGE_ERRORS;
