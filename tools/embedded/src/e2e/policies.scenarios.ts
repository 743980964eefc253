import { currentPolicyPacks, policyPackSchema } from '@dsar/contracts';
import type { RunningSystem } from '../system';
import { ApiClient } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

const SPEC_FIELDS = ['packId', 'name', 'jurisdiction', 'version', 'publishedAt'];

/**
 * Policy packs end to end through the gateway (`GET /policies`,
 * `GET /policies/{packId}`): the same scenarios run in embedded mode and
 * against PostgreSQL and Kafka. Uses the API keys of the gateway-intake scenarios.
 */
export function policyScenarios(getSystem: () => RunningSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  describe('policy packs', () => {
    it('lists the current built-in packs with the spec fields, sorted by packId', async () => {
      const res = await api.get('/policies');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Array.isArray(res.body)).toBe(true);
      const items = res.body as unknown as Record<string, any>[];
      for (const item of items) {
        for (const field of SPEC_FIELDS) expect(typeof item[field]).toBe('string');
        expect(item.jurisdiction).toBe(item.jurisdictions[0]);
        expect(item.source).toBe('built_in');
      }
      const ids = items.map((i) => i.packId);
      expect(ids).toEqual(expect.arrayContaining(['eu-gdpr', 'us-ca-ccpa']));
      expect(ids).toEqual([...ids].sort());
      expect(ids).toEqual(currentPolicyPacks().map((p) => p.packId));
      expect(items.find((i) => i.packId === 'us-ca-ccpa')).toMatchObject({ jurisdiction: 'US-CA', jurisdictions: ['US-CA'] });
    });

    it('every role with policies:read may list them', async () => {
      for (const key of [KEYS.intakeA, KEYS.auditorA, KEYS.workspaceA, KEYS.operatorB]) {
        expect((await api.as(key.token).get('/policies')).status).toBe(200);
      }
    });

    it('filters by any jurisdiction code a pack covers, case-insensitively, and by packId', async () => {
      const ids = async (query: string) => ((await api.get(`/policies?${query}`)).body as unknown as { packId: string }[]).map((i) => i.packId);
      expect(await ids('jurisdiction=de')).toEqual(['eu-gdpr']);
      expect(await ids('jurisdiction=EU')).toEqual(['eu-gdpr']);
      expect(await ids('jurisdiction=Us-Ca')).toEqual(['us-ca-ccpa']);
      expect(await ids('jurisdiction=XX')).toEqual([]);
      expect(await ids('packId=us-ca-ccpa')).toEqual(['us-ca-ccpa']);
      expect(await ids('packId=eu-gdpr&jurisdiction=US-CA')).toEqual([]);
    });

    it('gets a pack document: the current version, or the version asked for', async () => {
      const res = await api.get('/policies/eu-gdpr');
      expect(res.status).toBe(200);
      const pack = policyPackSchema.parse(res.body);
      expect(pack.packId).toBe('eu-gdpr');
      expect(pack.jurisdictions.map((j) => j.code)).toEqual(expect.arrayContaining(['EU', 'DE', 'FR']));
      const listed = ((await api.get('/policies?packId=eu-gdpr')).body as unknown as { version: string }[])[0];
      expect(pack.version).toBe(listed.version);

      const pinned = await api.get(`/policies/eu-gdpr?version=${pack.version}`);
      expect(pinned.status).toBe(200);
      expect(pinned.body).toEqual(res.body);
    });

    it('an unknown pack or version → 404 problem', async () => {
      for (const path of ['/policies/no-such-pack', '/policies/eu-gdpr?version=99.0.0', '/policies/Not%20A%20Pack']) {
        const res = await api.get(path);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ code: 'SVC-BE-1003', name: 'RESOURCE_NOT_FOUND', status: 404 });
        expect(res.body.code).toMatch(/^SVC-BE-\d+$/);
      }
      const instance = (await api.get('/policies/no-such-pack')).body.instance;
      expect(instance).toBe('/api/v1/policies/no-such-pack');
    });

    it.each([
      ['an unknown parameter', '/policies?region=EU', 'region'],
      ['a malformed jurisdiction', '/policies?jurisdiction=d', 'jurisdiction'],
      ['a malformed packId', '/policies?packId=EU_GDPR', 'packId'],
      ['a malformed version', '/policies/eu-gdpr?version=latest', 'version'],
    ])('%s → 400 naming it', async (_case, path, field) => {
      const res = await api.get(path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ code: 'SVC-BE-1102', name: 'REQUEST_VALIDATION_FAILED' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    });

    it('no token → 401; a wrong token → 401', async () => {
      for (const path of ['/api/v1/policies', '/api/v1/policies/eu-gdpr']) {
        for (const headers of [{}, { authorization: 'Bearer not-a-key-of-anyone-000000' }] as Record<string, string>[]) {
          const res = await api.call('GET', path, { token: null, headers });
          expect(res.status).toBe(401);
          expect(res.body.code).toBe('SVC-BE-1301');
          expect(res.headers.get('www-authenticate')).toContain('Bearer');
        }
      }
    });

    it('a known path with another method → 405', async () => {
      const res = await api.call('DELETE', '/api/v1/policies/eu-gdpr');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
    });
  });
}
