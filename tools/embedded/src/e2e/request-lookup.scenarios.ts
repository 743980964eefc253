import type { TestSystem } from './systems';
import { ApiClient, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

interface Created {
  id: string;
  reference: string;
  jurisdiction: string;
  requestType: string;
  channel: string;
  receivedAt: string;
}

/**
 * Issue [first-day], items 8 and 18, through the gateway in both modes: a request opened by its short reference
 * (`GET /requests/DSAR-…`) answers what its id does, within the caller's scope; the queue filters by request type,
 * jurisdiction, channel, receipt range and reference, alone and together, with exact totals; bad values are 400.
 */
export function requestLookupScenarios(getSystem: () => TestSystem): void {
  let queue: ApiClient;
  let north: ApiClient;
  let otherTenant: ApiClient;
  const created: Created[] = [];
  const referenceOf = (id: string) => `DSAR-${id.slice(0, 8).toUpperCase()}`;

  beforeAll(async () => {
    const api = new ApiClient(getSystem().gatewayUrl, KEYS.queueC.token);
    queue = api;
    north = api.as(KEYS.queueCNorth.token);
    otherTenant = api.as(KEYS.operatorB.token);
    // Tenant C, alone in this system: five requests received (and recorded) 10 to 2 days ago, and one of its workspace
    // `north` (3 days ago), which tenant-wide keys see as well.
    const plan: Array<[ApiClient, string, string, string, number]> = [
      [queue, 'DE', 'access', 'email', 10],
      [queue, 'DE', 'deletion', 'web_form', 8],
      [queue, 'FR', 'deletion', 'email', 6],
      [queue, 'US-CA', 'opt_out', 'web_form', 4],
      [queue, 'FR', 'access', 'phone', 2],
      [north, 'DE', 'access', 'email', 3],
    ];
    for (const [client, jurisdiction, requestType, channel, daysAgo] of plan) {
      const receivedAt = getSystem().clock.daysAgo(daysAgo);
      const res = await client.post('/requests/capture', intake({ jurisdiction, requestType, receivedAt }, { channel, receivedAt }));
      expect(res.status).toBe(202);
      created.push({ id: res.body.id, reference: referenceOf(res.body.id), jurisdiction, requestType, channel, receivedAt: res.body.receivedAt });
    }
  }, 120_000);

  describe('a request by its reference', () => {
    it('answers exactly what the id does, in any case, directly (200, no redirect)', async () => {
      for (const request of created.slice(0, 5)) {
        const byId = await queue.get(`/requests/${request.id}`);
        expect(byId.status).toBe(200);
        for (const reference of [request.reference, request.reference.toLowerCase()]) {
          const byReference = await queue.get(`/requests/${reference}`);
          expect({ reference, status: byReference.status }).toEqual({ reference, status: 200 });
          expect(byReference.body).toEqual(byId.body);
          expect(byReference.headers.get('x-last-event-id')).toBe(byId.headers.get('x-last-event-id'));
        }
      }
    });

    it("is a 404 for another tenant's request, and for another workspace's, as the id is", async () => {
      const [tenantWide] = created;
      const inNorth = created[5];
      for (const [client, request] of [
        [otherTenant, tenantWide],
        [otherTenant, inNorth],
        [north, tenantWide],
      ] as const) {
        for (const path of [`/requests/${request.reference}`, `/requests/${request.id}`]) {
          const res = await client.get(path);
          expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 404, code: 'SVC-BE-1003' });
        }
      }
      expect((await north.get(`/requests/${inNorth.reference}`)).body.id).toBe(inNorth.id);
      // A reference no request has.
      const unused = created.some((c) => c.reference === 'DSAR-00000000') ? 'DSAR-FFFFFFFF' : 'DSAR-00000000';
      expect((await queue.get(`/requests/${unused}`)).status).toBe(404);
    });

    it.each(['DSAR-123', 'DSAR-1A2B3C4G', 'dsar-1a2b3c4d5', 'DSAR-1A2B3C4D-7K3QX9M2TR4VB', 'DSAR-'])('%s → 400 problem+json naming idOrReference', async (value) => {
      const res = await queue.get(`/requests/${value}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'SVC-BE-1102', status: 400, instance: `/api/v1/requests/${value}` });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['idOrReference']);
    });

    it('leaves other values that are not ids a 404, as before', async () => {
      expect((await queue.get('/requests/not-a-uuid')).status).toBe(404);
    });
  });

  describe('the queue', () => {
    const ids = (body: { items: Array<{ id: string }> }) => body.items.map((i) => i.id).sort();
    const of = (...indexes: number[]) => indexes.map((i) => created[i].id).sort();
    const page = async (client: ApiClient, query: string) => {
      const res = await client.get(`/requests?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      return res.body as { items: Array<{ id: string }>; total: number; totalExact: boolean } & Record<string, unknown>;
    };

    it('filters by each of request type, jurisdiction, channel, receipt range and reference, with exact totals', async () => {
      const cases: Array<[string, number[], Record<string, unknown>]> = [
        ['requestType=deletion', [1, 2], { requestType: ['deletion'] }],
        ['requestType=access,opt_out', [0, 3, 4, 5], { requestType: ['access', 'opt_out'] }],
        ['jurisdiction=fr', [2, 4], { jurisdiction: ['FR'] }],
        ['jurisdiction=DE,us-ca', [0, 1, 3, 5], { jurisdiction: ['DE', 'US-CA'] }],
        ['channel=web_form', [1, 3], { channel: ['web_form'] }],
        ['channel=email,%20phone', [0, 2, 4, 5], { channel: ['email', 'phone'] }],
        [`receivedFrom=${encodeURIComponent(created[2].receivedAt)}`, [2, 3, 4, 5], { receivedFrom: created[2].receivedAt }],
        // The end is left out: the request received at that instant is not listed.
        [`receivedTo=${encodeURIComponent(created[2].receivedAt)}`, [0, 1], { receivedTo: created[2].receivedAt }],
        [`reference=${created[3].reference.toLowerCase()}`, [3], { reference: created[3].reference }],
      ];
      for (const [query, expected, echo] of cases) {
        const body = await page(queue, query);
        expect({ query, ids: ids(body), total: body.total, totalExact: body.totalExact }).toEqual({ query, ids: of(...expected), total: expected.length, totalExact: true });
        expect(body).toMatchObject(echo);
      }
    });

    it('combines the filters with each other, with status, atRiskDays and paging, and keeps to the caller’s scope', async () => {
      const from = encodeURIComponent(created[1].receivedAt);
      const to = encodeURIComponent(created[4].receivedAt);
      const cases: Array<[ApiClient, string, number[]]> = [
        [queue, 'requestType=deletion&jurisdiction=FR', [2]],
        [queue, 'requestType=deletion&channel=email&status=received', [2]],
        [queue, `receivedFrom=${from}&receivedTo=${to}`, [1, 2, 3, 5]],
        [queue, `receivedFrom=${from}&receivedTo=${to}&jurisdiction=DE,FR&channel=web_form,email`, [1, 2, 5]],
        [queue, 'requestType=access&atRiskDays=3650', [0, 4, 5]],
        [queue, 'requestType=access&status=closed', []],
        [queue, `reference=${created[0].reference}&requestType=deletion`, []],
        // An empty range lists nothing.
        [queue, `receivedFrom=${to}&receivedTo=${from}`, []],
        // Tenant-wide keys see the workspace's request too; the workspace's key, only its own.
        [queue, 'requestType=access&jurisdiction=DE', [0, 5]],
        [north, 'requestType=access&jurisdiction=DE', [5]],
        [north, `reference=${created[0].reference}`, []],
        [otherTenant, 'jurisdiction=DE,FR,US-CA', []],
      ];
      for (const [client, query, expected] of cases) {
        const body = await page(client, query);
        expect({ query, ids: ids(body), total: body.total, totalExact: body.totalExact }).toEqual({ query, ids: of(...expected), total: expected.length, totalExact: true });
      }
      // Pages of a filtered queue add up to its total, in the order asked for.
      const first = await page(queue, 'channel=email,web_form&sortBy=receivedAt&sortOrder=asc&limit=2');
      const second = await page(queue, 'channel=email,web_form&sortBy=receivedAt&sortOrder=asc&limit=2&offset=2');
      expect({ total: first.total, items: [...first.items, ...second.items].map((i) => i.id) }).toEqual({ total: 5, items: [0, 1, 2, 3].map((i) => created[i].id) });
    });

    it.each([
      ['requestType=refund', 'requestType'],
      ['requestType=', 'requestType'],
      ['jurisdiction=XX', 'jurisdiction'],
      ['jurisdiction=DE,,US-NY', 'jurisdiction'],
      ['channel=fax', 'channel'],
      ['receivedFrom=2026-03-01', 'receivedFrom'],
      ['receivedTo=yesterday', 'receivedTo'],
      ['reference=DSAR-123', 'reference'],
      ['reference=DSAR-1A2B3C4D-7K3QX9M2TR4VB', 'reference'],
      ['requestType=access&requestType=deletion', 'requestType'],
    ])('%s → 400 problem+json naming %s', async (query, field) => {
      const res = await queue.get(`/requests?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('SVC-BE-1102');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    });
  });
}
