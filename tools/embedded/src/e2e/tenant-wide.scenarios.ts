import { SignJWT } from 'jose';
import { INTERNAL_API_PREFIX, type PolicyPack, policyPackVersion } from '@dsar/contracts';
import { apiKeyId } from '@dsar/platform/auth';
import { RetentionSweeper } from '@dsar/platform/retention';
import { waitFor } from '@dsar/platform/testing';
import { ROUTES } from '@dsar/services/api-gateway';
import type { TestSystem } from './systems';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { signedInternalHeaders } from './internal-identity';

const DAY = 86_400_000;
const TENANT = KEYS.adminA.tenantId;
/** The HS256 secret the system of these scenarios accepts JWTs with (AUTH_JWT_SECRET). */
export const TENANT_WIDE_JWT_SECRET = 'tenant-wide-scenarios-jwt-secret-0123456789';

/** A custom pack for GB: the statutory UK pack under another name, with a response period of `days` calendar days. */
function customPack(name: string, version: string, days: number): PolicyPack {
  const pack = structuredClone(policyPackVersion('uk-gdpr', '1.0.0') as PolicyPack);
  pack.packId = name;
  pack.version = version;
  pack.name = `${name} service standard`;
  pack.rules.default.period = { amount: days, unit: 'calendar_days', countReceiptDay: false, roll: 'none' };
  return pack;
}

const registration = (pack: PolicyPack, releaseType: 'major' | 'minor') => ({
  jurisdiction: 'GB',
  name: pack.packId,
  version: pack.version,
  pack,
  metadata: { changelog: `Release ${pack.version}.`, compatibilityNotes: 'None.', releaseType },
});

/** The path of a route with its parameters filled in: the tenant, and the proposal the scenario made. */
function pathOf(template: string, values: Record<string, string>): string {
  return template.replace(/:(\w+)/g, (_m, name: string) => values[name] ?? `unknown-${name}`);
}

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
}

/**
 * Issue 35, finding 2: a key confined to a workspace may not act for the whole tenant. It is refused (403) on every
 * tenant-wide route, by the gateway and by the owning service, and changes nothing there: the tenant's legal hold
 * stays, so a request of another workspace is not purged; no proposal is made, approved or applied; no pack version
 * is registered. The tenant's own administrator still can do each. Finding 12: a JWT whose `sub` is an API key's id
 * is another principal. The same scenarios run in embedded mode and against PostgreSQL and Kafka.
 */
export function tenantWideScenarios(getSystem: () => TestSystem): void {
  let admin: ApiClient;
  let north: ApiClient;
  let south: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    north = admin.as(KEYS.northAdminA.token);
    south = admin.as(KEYS.southIntakeA.token);
  });
  const clock = () => getSystem().clock;
  const retention = (as: ApiClient, body?: unknown) => as.call(body === undefined ? 'GET' : 'PUT', `/api/v1/tenants/${TENANT}/retention`, body === undefined ? {} : { json: body });
  const requestRecordPolicy = async () => ((await retention(admin)).body as unknown as Array<Record<string, unknown>>).find((p) => p.class === 'request_record');
  /** Waits until lifecycle-clock's copy of the request_record policy (which its sweep uses, and the report reads) shows `hold`. */
  const sweepSees = (hold: boolean) =>
    waitFor(
      `lifecycle-clock's copy of the request_record policy with legalHoldEnabled ${hold}`,
      async () => {
        const report = await admin.get(`/tenants/${TENANT}/retention/report`);
        const entry = (report.body.classes as Array<{ class: string; legalHoldEnabled: boolean; purgeEnabled: boolean }>).find((c) => c.class === 'request_record');
        return entry?.legalHoldEnabled === hold && entry.purgeEnabled ? entry : undefined;
      },
      { timeoutMs: 20_000 },
    );
  const sweepRequestRecords = () => getSystem().services.get('lifecycle-clock')!.app.get(RetentionSweeper).sweep();

  /** A request of workspace `south`, received and withdrawn `days` days ago: past the default maximum of 365 days. */
  async function closedLongAgo(days: number): Promise<string> {
    const now = clock().now().getTime();
    clock().set(now - days * DAY);
    try {
      const created = await south.post('/requests/capture', intake({}, { receivedAt: new Date(now - days * DAY - 3_600_000).toISOString() }));
      expect(created.status).toBe(202);
      expect((await admin.post(`/requests/${created.body.id}/closures`, {})).status).toBe(202);
      return created.body.id as string;
    } finally {
      clock().set(now);
    }
  }

  describe("retention: a workspace admin may not lift the tenant's legal hold", () => {
    it("is refused with 403; the hold stays and another workspace's request outlives the sweep; the tenant admin then lifts it and the sweep purges", async () => {
      const id = await closedLongAgo(400);
      expect((await north.get(`/requests/${id}`)).status).toBe(404);
      expect((await retention(admin, { class: 'request_record', purgeEnabled: true, legalHoldEnabled: true })).status).toBe(202);
      await sweepSees(true);
      const held = await requestRecordPolicy();

      for (const lift of [
        { class: 'request_record', legalHoldEnabled: false },
        { class: 'request_record', legalHoldEnabled: false, minDays: 0, maxDays: 0, purgeEnabled: true },
      ]) {
        expectProblem(await retention(north, lift), 403, 'SVC-BE-1302');
      }
      expectProblem(await retention(north), 403, 'SVC-BE-1302');
      expectProblem(await north.get(`/tenants/${TENANT}/retention/report`), 403, 'SVC-BE-1302');
      expect(await requestRecordPolicy()).toEqual(held);
      await sweepRequestRecords();
      expect((await admin.get(`/requests/${id}`)).status).toBe(200);

      expect((await retention(admin, { class: 'request_record', legalHoldEnabled: false })).status).toBe(202);
      await sweepSees(false);
      await sweepRequestRecords();
      expect((await admin.get(`/requests/${id}`)).status).toBe(404);
    });
  });

  describe('policies: a workspace admin may not register, propose, approve or apply for the tenant', () => {
    let proposalId: string;

    it('registering a version is refused and registers nothing; the tenant admin registers it', async () => {
      expectProblem(await north.post('/policies/custom/register', registration(customPack('wide-uk', '1.0.0', 20), 'major')), 403, 'SVC-BE-1302');
      expect((await admin.get('/policies/wide-uk?version=1.0.0')).status).toBe(404);
      expect((await admin.post('/policies/custom/register', registration(customPack('wide-uk', '1.0.0', 20), 'major'))).status).toBe(202);
      expect((await admin.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: TENANT, version: '1.0.0' })).status).toBe(202);
      expect((await admin.post('/policies/custom/register', registration(customPack('wide-uk', '1.1.0', 15), 'minor'))).status).toBe(202);
    });

    it('proposing, reading, approving and applying are refused and change nothing; the tenant admins do each', async () => {
      expectProblem(await north.post('/policies/upgrades/propose', undefined), 403, 'SVC-BE-1302');
      expect((await admin.get('/policies/upgrades')).body).toEqual([]);
      const proposed = await admin.post('/policies/upgrades/propose', {});
      expect(proposed.status).toBe(202);
      proposalId = proposed.body.proposalId as string;
      expectProblem(await north.get('/policies/upgrades'), 403, 'SVC-BE-1302');
      expectProblem(await north.get(`/policies/upgrades/${proposalId}`), 403, 'SVC-BE-1302');
      expectProblem(await north.post(`/policies/upgrades/${proposalId}/approve`, undefined), 403, 'SVC-BE-1302');
      expect((await admin.get(`/policies/upgrades/${proposalId}`)).body).toMatchObject({ status: 'pending_approval', approvedBy: null });
      expect((await admin.as(KEYS.approverA.token).post(`/policies/upgrades/${proposalId}/approve`, undefined)).status).toBe(202);
      expectProblem(await north.post(`/policies/upgrades/${proposalId}/apply`, undefined), 403, 'SVC-BE-1302');
      expect((await admin.get(`/policies/upgrades/${proposalId}`)).body).toMatchObject({ status: 'approved', appliedBy: null });
      expect((await admin.post(`/policies/upgrades/${proposalId}/apply`, undefined)).status).toBe(202);
    });

    it('activating for its own workspace is still allowed, and for the tenant or another workspace is a 404', async () => {
      expect((await north.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: TENANT, version: '1.0.0', workspaceId: 'north' })).status).toBe(202);
      expectProblem(await north.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: TENANT, version: '1.0.0' }), 404, 'SVC-BE-1003');
      expectProblem(await north.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: TENANT, version: '1.0.0', workspaceId: 'south' }), 404, 'SVC-BE-1003');
      expectProblem(await north.post('/policies/custom/deactivate', { tenantId: TENANT, workspaceId: 'south' }), 404, 'SVC-BE-1003');
    });

    it('every tenant-wide route of the table refuses it, at the gateway and at the owning service', async () => {
      const tenantWide = ROUTES.filter((r) => r.tenantWide);
      expect(tenantWide.length).toBeGreaterThanOrEqual(10);
      const values = { tenantId: TENANT, proposalId, checkpointId: '00000000-0000-4000-8000-000000000000' };
      const confined = { id: apiKeyId(KEYS.northAdminA.token), tenantId: TENANT, workspaceId: 'north', roles: ['admin'] };
      const answers: string[] = [];
      for (const route of tenantWide) {
        const path = pathOf(route.path, values);
        const json = route.body && !route.bodyOptional ? {} : undefined;
        const viaGateway = await north.call(route.method, `/api/v1${path}`, json === undefined ? {} : { json });
        const url = `${getSystem().services.get(route.service)!.url}${INTERNAL_API_PREFIX}${path}`;
        const direct = await fetch(url, {
          method: route.method,
          headers: { accept: 'application/json', ...(json ? { 'content-type': 'application/json' } : {}), ...signedInternalHeaders(getSystem().internalAuthKey, route.method, url, confined) },
          body: json ? JSON.stringify(json) : undefined,
        });
        const directBody = (await direct.json()) as { code?: string };
        answers.push(`${route.method} ${route.path}: gateway ${viaGateway.status} ${viaGateway.body?.code}, ${route.service} ${direct.status} ${directBody.code}`);
      }
      expect(answers).toEqual(tenantWide.map((r) => `${r.method} ${r.path}: gateway 403 SVC-BE-1302, ${r.service} 403 SVC-BE-1302`));
    });
  });

  describe('principal ids: one namespace per kind of caller', () => {
    const jwtFor = (sub: string, roles: string[]) =>
      new SignJWT({ tenant_id: TENANT, roles }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('10m').sign(new TextEncoder().encode(TENANT_WIDE_JWT_SECRET));

    it("a JWT whose sub is an API key's principal id acts as another principal in the audit chain and the clock", async () => {
      const keyId = apiKeyId(KEYS.adminA.token);
      const impostor = admin.as(await jwtFor(keyId, ['operator']));
      const created = await admin.post('/requests', intake());
      expect(created.status).toBe(202);
      const id = created.body.id as string;
      expect((await admin.post(`/requests/${id}/acknowledgements`, {})).status).toBe(202);
      expect((await impostor.post(`/requests/${id}/clock/pauses`, { reason: 'fee' })).status).toBe(202);

      const pauses = (await admin.get(`/requests/${id}/clock/explain`)).body.pauses as Array<{ actor: string }>;
      expect(pauses.map((p) => p.actor)).toEqual([`jwt:${keyId}`]);
      const exported = await admin.get(`/requests/${id}/audit/export`);
      const actorOf = (type: string) => (exported.body.events as Array<{ eventType: string; actor: string }>).find((e) => e.eventType === type)?.actor;
      expect(actorOf('dsar.request.acknowledged.v1')).toBe(keyId);
      expect(actorOf('dsar.request.clock_paused.v1')).toBe(`jwt:${keyId}`);
    });
  });
}
