import { z } from 'zod';
import { ROLES } from '@dsar/contracts';
import { authorizationCases, buildOpenApiDocument, type GatewayRoute, RouteMatcher, ROUTES } from '@dsar/services/api-gateway';
import { endpointProblems } from './endpoint-check';
import { type Endpoint, ENDPOINTS } from './endpoints';

/**
 * A route added to the gateway's table and nowhere else reaches each of its consumers: the gateway's routing, the
 * OpenAPI document, the authorization matrix and the CLI's endpoint check (which fails until the CLI has it). The
 * route is added to a copy of the table, as a new route is added to its area's file.
 */
const THROWAWAY: GatewayRoute = {
  method: 'POST',
  path: '/requests/:id/throwaway-checks',
  service: 'lifecycle-clock',
  permission: 'requests:act',
  operationId: 'runThrowawayCheck',
  summary: 'A route of this test only',
  tag: 'Lifecycle',
  body: z.strictObject({ note: z.string() }),
  response: { status: 202, schema: z.strictObject({ checked: z.boolean() }), description: 'Checked.' },
  errors: ['RESOURCE_NOT_FOUND'],
};
const TABLE: readonly GatewayRoute[] = [...ROUTES, THROWAWAY];
/** A route of the real table with the same permission and scope, to compare the throw-away route with. */
const LIKE = ROUTES.find((r) => r.operationId === 'acknowledgeRequest')!;

describe('a route added to the table alone', () => {
  it('is routed by the gateway', () => {
    expect(new RouteMatcher(TABLE).resolve('POST', '/requests/r-1/throwaway-checks')).toEqual({ route: THROWAWAY, params: { id: 'r-1' } });
    expect(() => new RouteMatcher(ROUTES).resolve('POST', '/requests/r-1/throwaway-checks')).toThrow(/No endpoint answers/);
  });

  it('is published in the OpenAPI document', () => {
    const operation = buildOpenApiDocument(TABLE).paths['/requests/{id}/throwaway-checks']?.post as { operationId?: string; tags?: string[]; responses?: Record<string, unknown> } | undefined;
    expect(operation).toMatchObject({ operationId: 'runThrowawayCheck', tags: ['Lifecycle'] });
    expect(Object.keys(operation!.responses!)).toEqual(expect.arrayContaining(['202', '401', '403', '404']));
    expect(buildOpenApiDocument(ROUTES).paths['/requests/{id}/throwaway-checks']).toBeUndefined();
  });

  it('is called by every role, tenant-wide and confined, in the authorization matrix, refused as a route of its permission is', () => {
    const cases = authorizationCases(TABLE);
    const outcomes = (route: GatewayRoute) => cases.filter((c) => c.route === route).map((c) => `${c.role}${c.confined ? ' (confined)' : ''}: ${c.refused ? 'refused' : 'forwarded'}`);
    expect(outcomes(THROWAWAY)).toHaveLength(ROLES.length * 2);
    expect(outcomes(THROWAWAY)).toEqual(outcomes(LIKE));
    expect(cases.filter((c) => c.route === THROWAWAY).map((c) => c.path)).toEqual(Array(ROLES.length * 2).fill('/api/v1/requests/x-id/throwaway-checks'));
    expect(authorizationCases(ROUTES).some((c) => c.route === THROWAWAY)).toBe(false);
  });

  it("fails the CLI's endpoint check until the CLI has an endpoint for it", () => {
    expect(endpointProblems(TABLE)).toEqual(['POST /requests/:id/throwaway-checks: no endpoint in apps/dsar/src/endpoints.ts']);
    const withEndpoint: Endpoint[] = [...Object.values(ENDPOINTS), { method: 'POST', path: '/requests/:id/throwaway-checks', body: 'json' }];
    expect(endpointProblems(TABLE, withEndpoint)).toEqual([]);
    expect(endpointProblems(TABLE, [...Object.values(ENDPOINTS), { method: 'POST', path: '/requests/:id/throwaway-checks', body: 'none' }])).toEqual([
      'POST /requests/:id/throwaway-checks: the route takes its body as json, the endpoint sends none',
    ]);
    expect(endpointProblems(ROUTES, withEndpoint)).toEqual(['POST /requests/:id/throwaway-checks: no route of the gateway answers it']);
  });
});
