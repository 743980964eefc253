import type { GatewayRoute } from '@dsar/services/api-gateway';
import { type BodyKind, type Endpoint, ENDPOINTS } from './endpoints';

/** How the CLI must send a route's body: the route's upload, its JSON body (optional or not), or none. */
function bodyKindOf(route: GatewayRoute): BodyKind {
  if (route.upload) return 'upload';
  if (!route.body) return 'none';
  return route.bodyOptional ? 'optional-json' : 'json';
}

/**
 * What is wrong with the CLI's endpoint list against the gateway's route table: a route an operator calls (all but
 * the providers' webhooks, which only the providers call, and the person's download page, which only the page calls) without an endpoint of its method and path, an endpoint no
 * route answers, or an endpoint that sends its body another way than the route takes it. The unit tests hold
 * ENDPOINTS to ROUTES with it; the CLI itself does not load the route table, which would load the gateway library and
 * every contract's schema at each command's start.
 */
export function endpointProblems(routes: readonly GatewayRoute[], endpoints: readonly Endpoint[] = Object.values(ENDPOINTS)): string[] {
  const called = routes.filter((r) => r.webhook === undefined && r.portal === undefined);
  const endpointOf = (route: GatewayRoute) => endpoints.find((e) => e.method === route.method && e.path === route.path);
  const missing = called.filter((r) => !endpointOf(r)).map((r) => `${r.method} ${r.path}: no endpoint in apps/dsar/src/endpoints.ts`);
  const unknown = endpoints.filter((e) => !called.some((r) => r.method === e.method && r.path === e.path)).map((e) => `${e.method} ${e.path}: no route of the gateway answers it`);
  const body = called.flatMap((r) => {
    const endpoint = endpointOf(r);
    return endpoint && endpoint.body !== bodyKindOf(r) ? [`${r.method} ${r.path}: the route takes its body as ${bodyKindOf(r)}, the endpoint sends ${endpoint.body}`] : [];
  });
  return [...missing, ...unknown, ...body];
}
