/**
 * Whether an error means that the database (or another server the service
 * depends on) cannot be reached right now, rather than that the request or
 * the code is wrong: the connection was refused, reset or timed out, the
 * server is shutting down or starting (`57P01`, `57P02`, `57P03`), has no
 * connection slot left (`53300`), or the connection broke (SQLSTATE class
 * `08`). Such a failure is a 503 the client may retry, not a 500.
 *
 * TypeORM releases a query runner as soon as its connection emits an error
 * (the server went away in the middle of a transaction or of a `save`); the
 * runner's next statement then fails with `QueryRunnerAlreadyReleasedError`
 * instead of the network error, so that name counts as a broken connection
 * too. Our code never keeps a runner past its transaction (UnitOfWork ends
 * it), so the name means nothing else here.
 *
 * Recognised by shape, so that it holds for the pg driver, PGlite, the pg
 * pool and TypeORM's wrappers (which keep the driver's error as `driverError`
 * or `cause`) without importing any of them.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Error names that only a lost connection produces (see above). */
const NAMES = new Set(['QueryRunnerAlreadyReleasedError']);
const MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /connection (?:is )?not established/i,
  /client has encountered a connection error/i,
  /client was closed and is not queryable/i,
  /^timeout expired$/i,
  /cannot use a pool after calling end/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
];

export function isInfrastructureUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || error === null || typeof error !== 'object') return false;
  const e = error as { name?: unknown; code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.name === 'string' && NAMES.has(e.name)) return true;
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  // AggregateError (a connection attempt to several addresses) holds one error per address.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isInfrastructureUnavailable(inner, depth + 1))) return true;
  return isInfrastructureUnavailable(e.driverError, depth + 1) || isInfrastructureUnavailable(e.cause, depth + 1);
}

/** Seconds a client should wait before retrying a request refused for that reason. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;
