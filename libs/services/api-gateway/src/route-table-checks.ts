import type { z } from 'zod';
import { IDEMPOTENCY_ERRORS } from './route-errors';
import { type GatewayRoute, PUBLIC } from './route-types';

/*
 * The route table's self-checks, beside the table: the gateway refuses to start on a table that fails them, and the
 * unit tests hold ROUTES to them.
 */

/** Headers an upload route may not declare: the internal ones the gateway sets itself, and the proxies'. */
const RESERVED_HEADER = /^x-(?:dsar-|request-id$|forwarded-)/i;
/** Headers of HTTP itself, which a webhook route cannot claim as its own. */
const HTTP_HEADERS = new Set(['authorization', 'cookie', 'host', 'connection', 'content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'traceparent', 'idempotency-key', 'accept']);

/**
 * What is wrong with a route table, if anything: an upload route takes a
 * streamed body (POST, PUT or PATCH, no JSON `body`) and names only `X-`
 * headers of its own; a download route is a GET without `file`; a query is
 * a strict object; a POST or PUT honours an Idempotency-Key (and lists its
 * errors) or says why it does not (`idempotencyExempt`).
 */
export function routeTableProblems(routes: readonly GatewayRoute[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const at = `${route.method} ${route.path}`;
    if (route.upload) {
      if (!['POST', 'PUT', 'PATCH'].includes(route.method)) problems.push(`${at}: an upload is a POST, PUT or PATCH`);
      if (route.body) problems.push(`${at}: an upload route has no JSON body`);
      for (const name of Object.keys(route.upload.headers)) {
        if (!/^x-[a-z0-9][a-z0-9-]*$/i.test(name) || RESERVED_HEADER.test(name)) problems.push(`${at}: ${name} is not an X- header a route may take`);
      }
    }
    if (route.download) {
      if (route.method !== 'GET') problems.push(`${at}: a download is a GET`);
      if (route.file) problems.push(`${at}: a download route is always a file; it has no \`file\``);
    }
    if ((route.permission === PUBLIC) !== (route.webhook !== undefined || route.portal !== undefined)) {
      problems.push(`${at}: a route is public exactly when it is a provider's webhook or a route of the download page`);
    }
    if (route.webhook && route.portal) problems.push(`${at}: a route is a webhook or a route of the download page, not both`);
    if (route.portal && (route.upload || route.file || route.readYourWrites))
      problems.push(`${at}: a route of the download page takes no upload, answers no negotiated file and reads no request first`);
    if (route.permission === PUBLIC && route.tenantWide) problems.push(`${at}: a public route has no caller to confine, so it is not tenant-wide`);
    if (route.webhook) {
      if (route.method !== 'POST') problems.push(`${at}: a webhook is a POST`);
      if (route.body || route.upload || route.passHeaders) problems.push(`${at}: a webhook has no JSON body, upload or passed headers of its own; its headers are the webhook's`);
      for (const name of Object.keys(route.webhook.headers)) {
        if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || RESERVED_HEADER.test(name) || HTTP_HEADERS.has(name)) problems.push(`${at}: ${name} is not a lower-case header of the webhook's own`);
      }
    }
    const listsIdempotency = IDEMPOTENCY_ERRORS.every((name) => route.errors.includes(name));
    if (route.method === 'POST' || route.method === 'PUT') {
      if (route.idempotencyExempt !== undefined ? route.idempotencyExempt.trim() === '' || listsIdempotency : !listsIdempotency) {
        problems.push(`${at}: a POST or PUT honours an Idempotency-Key and lists IDEMPOTENCY_ERRORS, or says why not in \`idempotencyExempt\` (and lists none)`);
      }
    } else if (route.idempotencyExempt !== undefined) problems.push(`${at}: only a POST or PUT takes an Idempotency-Key to be exempt from`);
    for (const name of Object.keys(route.passHeaders ?? {})) {
      if (!/^x-[a-z0-9][a-z0-9-]*$/.test(name) || RESERVED_HEADER.test(name)) problems.push(`${at}: ${name} is not a lower-case X- header a route may pass on`);
      if (route.upload?.headers[name]) problems.push(`${at}: ${name} is both an upload header and a passed header`);
    }
  }
  return [...problems, ...queryProblems(routes)];
}

/** Whether a query schema refuses the parameters it does not name: a zod object whose unknown keys are `never`. */
function refusesUnknownParameters(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; catchall?: z.ZodType };
  return def.type === 'object' && def.catchall?._zod.def.type === 'never';
}

/** What is wrong with the queries of a route table: each published query is a strict object (`z.strictObject`). */
export function queryProblems(routes: readonly GatewayRoute[]): string[] {
  return routes.filter((r) => r.query && !refusesUnknownParameters(r.query)).map((r) => `${r.method} ${r.path}: its query is not a z.strictObject (an unknown parameter would pass)`);
}
