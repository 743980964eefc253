/**
 * Headers by which the api-gateway tells an internal service who is calling.
 * The gateway sets them after authenticating the bearer token and strips any
 * a client sent; internal services accept them only with a valid signature
 * (IdentitySignatureHeaders) and never see tokens.
 */
export const IdentityHeaders = {
  tenant: 'x-dsar-tenant-id',
  workspace: 'x-dsar-workspace-id',
  principal: 'x-dsar-principal',
  roles: 'x-dsar-roles',
} as const;

/**
 * The signature that makes the identity headers trustworthy (docs/adr/0020):
 * an HMAC-SHA256, with the key every process shares (INTERNAL_AUTH_KEY), over
 * the method, the path and query, the timestamp and the identity headers.
 * A service refuses identity headers without a valid, fresh signature.
 */
export const IdentitySignatureHeaders = {
  /** Milliseconds since the epoch when the call was signed. */
  timestamp: 'x-dsar-identity-timestamp',
  /** `v1=` and the base64url HMAC. */
  signature: 'x-dsar-identity-signature',
} as const;

/** The authenticated caller as internal services see it. */
export interface Principal {
  /** Stable id of the caller, one namespace per kind: `key:<16 hex>` (an API key), `jwt:<sub>` (a JWT), `system:<name>` (a service acting on its own). */
  readonly id: string;
  readonly tenantId: string;
  /** Set when the caller is confined to one workspace of the tenant. */
  readonly workspaceId?: string;
  readonly roles: readonly string[];
}

/** The Idempotency-Key header, and the request fingerprint the gateway computes for it. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_FINGERPRINT_HEADER = 'x-dsar-request-fingerprint';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/**
 * What an Idempotency-Key may be: 1 to 255 visible ASCII characters other than
 * `"` (U+0021–U+007E; no space), bare or as a structured-field string in double
 * quotes. The gateway checks it and the OpenAPI document publishes it.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^(?:[\x21\x23-\x7E]{1,255}|"[\x21\x23-\x7E]{1,255}")$/;

/** Internal services expose their API under this prefix; the gateway maps `/api/v1/x` to `/internal/v1/x`. */
export const INTERNAL_API_PREFIX = '/internal/v1';
export const PUBLIC_API_PREFIX = '/api/v1';

/**
 * Read-your-writes for derived views: lifecycle-clock names a request's newest
 * event on its detail, and the gateway asks audit-ledger to wait for that
 * event before it answers a timeline read.
 */
export const LAST_EVENT_HEADER = 'x-dsar-last-event-id';
export const AWAIT_EVENT_HEADER = 'x-dsar-await-event';

/** Whether a path segment can be a resource id at all: anything else is simply not found, without asking the database. */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
