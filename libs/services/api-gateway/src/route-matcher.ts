import { match, type MatchFunction } from 'path-to-regexp';
import { ProblemError } from '@dsar/platform/errors';
import type { GatewayRoute } from './route-types';

export interface MatchedRoute {
  route: GatewayRoute;
  params: Record<string, string>;
}

/** How many segments of a route's path are literal: `/requests/capture` (2) is more specific than `/requests/:id` (1). */
function literalSegments(path: string): number {
  return path.split('/').filter((s) => s !== '' && !s.startsWith(':')).length;
}

/**
 * Finds the route of a method and path; an unknown path is 404, a known path with another method 405. A path that a
 * route names literally belongs to the most literal routes only (`/requests/capture` is not a request id), so its
 * `Allow` lists exactly their methods.
 */
export class RouteMatcher {
  private readonly compiled: { route: GatewayRoute; literal: number; match: MatchFunction<Record<string, string>> }[];

  constructor(routes: readonly GatewayRoute[]) {
    this.compiled = routes.map((route) => ({ route, literal: literalSegments(route.path), match: match<Record<string, string>>(route.path, { decode: decodeURIComponent }) }));
  }

  /** A HEAD resolves to the GET route of the path: it is answered like the GET, without the body. */
  resolve(method: string, path: string): MatchedRoute {
    const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const matches = this.compiled.flatMap((c) => {
      const m = c.match(normalized);
      return m ? [{ ...c, params: m.params }] : [];
    });
    const mostLiteral = Math.max(...matches.map((m) => m.literal));
    const candidates = matches.filter((m) => m.literal === mostLiteral);
    const found = candidates.find((c) => c.route.method === wanted);
    if (found) return { route: found.route, params: found.params };
    const allowed = candidates.map((c) => c.route.method);
    if (allowed.length > 0) {
      throw new ProblemError('METHOD_NOT_ALLOWED', `${path} answers ${allowed.join(', ')}, not ${method}.`, undefined, {}, { Allow: allowed.join(', ') });
    }
    throw new ProblemError('ROUTE_NOT_FOUND', `No endpoint answers ${method} /api/v1${path}.`);
  }
}
