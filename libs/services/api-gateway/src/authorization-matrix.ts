import { type Role, ROLES, rolesAllow } from '@dsar/contracts';
import { type GatewayRoute, PUBLIC } from './route-types';

/** One call of the gateway's authorization matrix: a route called by one role, tenant-wide or confined to a workspace. */
export interface AuthorizationCase {
  route: GatewayRoute;
  role: Role;
  confined: boolean;
  /** The path of the call, under /api/v1, each `:name` parameter filled in as `x-name`. */
  path: string;
  /** What the gateway must do: refuse (403, nothing forwarded) when the roles table does not give the role the route's permission, or the route is tenant-wide and the caller confined. */
  refused: boolean;
  /** The route requires a query parameter, so a call without one stops at the gateway (400) after authorization. */
  lacksQuery: boolean;
}

/**
 * Every call the authorization tests make of a route table: each authenticated route (a provider's webhook has no
 * caller) × each role × a tenant-wide caller and one confined to a workspace, with what the gateway must answer.
 * A route joins the matrix by being in the table (gateway-authorization.spec.ts runs it against ROUTES).
 */
export function authorizationCases(routes: readonly GatewayRoute[]): AuthorizationCase[] {
  return routes.flatMap((route) => {
    const permission = route.permission;
    if (permission === PUBLIC) return [];
    const path = `/api/v1${route.path.replace(/:(\w+)/g, 'x-$1')}`;
    const lacksQuery = route.query !== undefined && !route.query.safeParse({}).success;
    return ROLES.flatMap((role) => [false, true].map((confined) => ({ route, role, confined, path, refused: !rolesAllow([role], permission) || (route.tenantWide === true && confined), lacksQuery })));
  });
}
