/**
 * Headers by which the api-gateway tells an internal service who is calling.
 * The gateway sets them after authenticating the bearer token and strips any
 * a client sent; internal services trust them and never see tokens.
 */
export const IdentityHeaders = {
  tenant: 'x-dsar-tenant-id',
  workspace: 'x-dsar-workspace-id',
  principal: 'x-dsar-principal',
  roles: 'x-dsar-roles',
} as const;

/** The authenticated caller as internal services see it. */
export interface Principal {
  /** Stable id of the caller: an API key's id or a JWT's `sub`. */
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
