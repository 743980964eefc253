import { match, type MatchFunction } from 'path-to-regexp';
import { ProblemError } from '@dsar/platform/errors';
import type { GatewayRoute } from './routes';

export interface MatchedRoute {
  route: GatewayRoute;
  params: Record<string, string>;
}

/** Finds the route of a method and path; an unknown path is 404, a known path with another method 405. */
export class RouteMatcher {
  private readonly compiled: { route: GatewayRoute; match: MatchFunction<Record<string, string>> }[];

  constructor(routes: readonly GatewayRoute[]) {
    this.compiled = routes.map((route) => ({ route, match: match<Record<string, string>>(route.path, { decode: decodeURIComponent }) }));
  }

  resolve(method: string, path: string): MatchedRoute {
    const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const allowed: string[] = [];
    for (const c of this.compiled) {
      const m = c.match(normalized);
      if (!m) continue;
      if (c.route.method === method.toUpperCase()) return { route: c.route, params: m.params };
      allowed.push(c.route.method);
    }
    if (allowed.length > 0) {
      throw new ProblemError('METHOD_NOT_ALLOWED', `${path} answers ${allowed.join(', ')}, not ${method}.`, undefined, {}, { Allow: allowed.join(', ') });
    }
    throw new ProblemError('ROUTE_NOT_FOUND', `No endpoint answers ${method} /api/v1${path}.`);
  }
}
