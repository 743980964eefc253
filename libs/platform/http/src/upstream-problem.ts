import { ErrorCatalog, type ErrorName, errorStatuses } from '@dsar/contracts';
import { type FieldProblem, ProblemError } from '@dsar/platform/errors';
import type { InternalResponse } from './internal-client';

/** Members of a problem that ProblemError rebuilds itself; every other member is passed on as an extension. */
const OWN_MEMBERS = new Set(['type', 'title', 'status', 'detail', 'instance', 'code', 'name', 'requestId', 'errors']);
/** Headers of an upstream problem that matter to the caller. */
const PASSED_HEADERS = ['retry-after', 'allow'];

/**
 * Another service's problem answer as an error of this one: same catalog
 * entry, detail, field problems and extension members, so the client sees
 * the problem of the service that decided (with its status, when the code
 * is answered with several). A body that is not one of the catalog's
 * problems is an internal error (it names nothing the client can act on).
 */
export function upstreamProblem(service: string, res: InternalResponse): ProblemError {
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    // Not JSON: handled below as an unknown answer.
  }
  const name = typeof body.name === 'string' && body.name in ErrorCatalog ? (body.name as ErrorName) : undefined;
  if (!name) return new ProblemError(res.status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR', `${service} answered ${res.status}.`);
  const extensions = Object.fromEntries(Object.entries(body).filter(([k]) => !OWN_MEMBERS.has(k)));
  const headers: Record<string, string> = {};
  for (const h of PASSED_HEADERS) {
    const v = res.headers.get(h);
    if (v !== null) headers[h] = v;
  }
  const status = errorStatuses(ErrorCatalog[name]).includes(res.status) ? res.status : undefined;
  return new ProblemError(name, typeof body.detail === 'string' ? body.detail : undefined, Array.isArray(body.errors) ? (body.errors as FieldProblem[]) : undefined, extensions, headers, status);
}
