import { type GatewayRoute, ROUTES } from '@dsar/services/api-gateway';
import type { RunningSystem } from '../system';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

/** A parameter no route publishes. */
const UNKNOWN = 'unknownParam';
const SOME_ID = '00000000-0000-4000-8000-000000000000';
const PUBLIC = 'public';

/** A route's path under /api/v1 with its parameters filled in: the caller's tenant for `:tenantId`, a pack for `:packId`, else an id. */
function pathOf(route: GatewayRoute): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'tenantId' ? KEYS.adminA.tenantId : name === 'packId' ? 'eu-gdpr' : SOME_ID));
}

function expectUnknownParameter(res: ApiResponse, at: string): void {
  const errors = (res.body?.errors ?? []) as Array<{ field: string; message: string }>;
  expect({ at, status: res.status, code: res.body?.code, type: res.headers.get('content-type'), named: errors.some((e) => e.field === UNKNOWN && e.message === 'is not a known field') }).toEqual({
    at,
    status: 400,
    code: 'SVC-BE-1102',
    type: expect.stringMatching(/^application\/problem\+json/),
    named: true,
  });
}

/**
 * docs/security.md#input-rules: a query parameter a route does not publish is a 400 naming it, on every route a
 * caller authenticates for, refused by the gateway before anything is forwarded. The routes come from the gateway's
 * route table, so a new route is checked by itself.
 */
export function queryRulesScenarios(getSystem: () => RunningSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });
  const authenticated = ROUTES.filter((r) => r.permission !== PUBLIC);
  const queueTotal = async () => {
    const res = await api.get('/requests?limit=1');
    expect(res.status).toBe(200);
    return res.body.total as number;
  };

  it('checks every authenticated route of the table, GET routes with and without a query of their own', () => {
    const gets = authenticated.filter((r) => r.method === 'GET');
    expect(gets.filter((r) => r.query).length).toBeGreaterThan(3);
    expect(gets.filter((r) => !r.query).length).toBeGreaterThan(9);
  });

  it.each(authenticated.map((r) => [`${r.method} ${r.path}`, r] as const))('%s with an unknown query parameter → 400 naming it', async (at, route) => {
    const res = await api.call(route.method, `/api/v1${pathOf(route)}?${UNKNOWN}=1`);
    expectUnknownParameter(res, at);
  });

  it('HEAD is checked like its GET; a route with a query still takes its own parameters', async () => {
    const head = await fetch(`${api.baseUrl}/api/v1/requests/${SOME_ID}?${UNKNOWN}=1`, { method: 'HEAD', headers: { authorization: `Bearer ${KEYS.adminA.token}` } });
    expect(head.status).toBe(400);
    expect((await api.get('/requests?limit=1&sortOrder=asc')).status).toBe(200);
    const misspelt = await api.get('/requests?stauts=received');
    expect(misspelt.body.errors).toEqual([{ field: 'stauts', message: 'is not a known field' }]);
  });

  it('a command with an unknown query parameter records nothing', async () => {
    const before = await queueTotal();
    expectUnknownParameter(await api.post(`/requests?${UNKNOWN}=1`, intake()), 'POST /requests');
    expect(await queueTotal()).toBe(before);
  });

  it("a provider's webhook is not refused for its query: the URL is the operator's, and a refusal would only be retried", async () => {
    const plain = await api.call('POST', '/api/v1/webhooks/inbound/mail', { token: null, json: {} });
    const withQuery = await api.call('POST', `/api/v1/webhooks/inbound/mail?${UNKNOWN}=1`, { token: null, json: {} });
    expect({ status: withQuery.status, code: withQuery.body?.code }).toEqual({ status: plain.status, code: plain.body?.code });
  });
}
