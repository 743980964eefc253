import { isRole, type Permission, PERMISSIONS, type Principal, rolesAllow, sessionView, type SessionView } from '@dsar/contracts';
import type { GatewayRoute } from './route-types';

/** The service name of a route the gateway answers itself, from the caller it authenticated, without a hop. */
export const GATEWAY_SERVICE = 'api-gateway';

/** Routes the gateway answers itself: who the caller is (docs/console.md, docs/security.md). */
export const SESSION_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/session',
    service: GATEWAY_SERVICE,
    permission: 'session:read',
    operationId: 'getSession',
    summary: 'Who the caller is',
    description:
      'The caller as the gateway authenticated it: its principal (`jwt:<sub>` or `key:<16 hex>`), tenant, workspace (null: the whole tenant), roles, and the permissions they grant together. Every role may ask. The console hides what the caller may not do by it; the API still decides every call. Answered by the gateway itself; nothing is forwarded or recorded.',
    tag: 'Session',
    response: { status: 200, schema: sessionView, description: 'The caller.' },
    errors: [],
  },
];

/** The answer of `GET /session` for an authenticated caller. */
export function sessionOf(principal: Principal): SessionView {
  const permissions = (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => rolesAllow(principal.roles, permission));
  return { principal: principal.id, tenantId: principal.tenantId, workspaceId: principal.workspaceId ?? null, roles: principal.roles.filter(isRole), permissions };
}
