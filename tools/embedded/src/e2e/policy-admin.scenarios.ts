import { type PolicyPack, policyPackVersion } from '@dsar/contracts';
import { apiKeyId } from '@dsar/platform/auth';
import { endOfLocalDay } from '@dsar/platform/deadline';
import { waitFor } from '@dsar/platform/testing';
import { CheckpointPublisher } from '@dsar/services/audit-ledger';
import type { TestSystem } from './systems';
import { ApiClient, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

const UK = policyPackVersion('uk-gdpr', '1.0.0') as PolicyPack;
const London = 'Europe/London';

/** A custom pack for GB: the statutory UK pack as a service standard, with a response period of `days` calendar days. */
function customPack(name: string, version: string, days?: number): PolicyPack {
  const pack = structuredClone(UK);
  pack.packId = name;
  pack.version = version;
  pack.name = `${name} service standard`;
  if (days !== undefined) pack.rules.default.period = { amount: days, unit: 'calendar_days', countReceiptDay: false, roll: 'none' };
  return pack;
}

function registration(pack: PolicyPack, releaseType: 'major' | 'minor' | 'patch' = 'minor', jurisdiction = 'GB') {
  return { jurisdiction, name: pack.packId, version: pack.version, pack, metadata: { changelog: `Release ${pack.version}.`, compatibilityNotes: 'None.', releaseType } };
}

/** The due date of a request received at noon on `day` (London) with a period of `days` calendar days and no roll. */
function dueAfterDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const last = new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
  return endOfLocalDay(last, London).toISOString();
}

/** The probe's value once `done` holds of it (the copy of the pack sets, the re-pinning and the timeline catch up asynchronously). */
function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  return waitFor(
    'the change to take effect',
    async () => {
      const value = await probe();
      return done(value) ? value : undefined;
    },
    { timeoutMs: 15_000 },
  );
}

/**
 * Policy administration end to end through the gateway: the UK pack's two
 * versions by date of receipt, custom packs (registration, approval under four
 * eyes, activation by tenant and workspace, deactivation, and a tenant without
 * four eyes), upgrade proposals under four eyes with re-pinning, and another
 * tenant. The same scenarios run in embedded mode and against PostgreSQL and
 * Kafka. Tenant B has four eyes off (policy-admin.e2e-spec.ts).
 */
export function policyAdminScenarios(getSystem: () => TestSystem, options: { distributed?: boolean } = {}): void {
  let admin: ApiClient;
  let approver: ApiClient;
  let reviewer: ApiClient;
  let otherTenant: ApiClient;
  let north: ApiClient;
  beforeAll(() => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    approver = admin.as(KEYS.approverA.token);
    reviewer = admin.as(KEYS.reviewerA.token);
    otherTenant = admin.as(KEYS.adminB.token);
    north = admin.as(KEYS.northAdminA.token);
  });

  const create = async (client: ApiClient, receivedAt: string, jurisdiction = 'GB') => {
    const res = await client.post('/requests', intake({ jurisdiction }, { receivedAt }));
    expect(res.status).toBe(202);
    return (await client.get(`/requests/${res.body.id}`)).body as Record<string, any>;
  };

  describe('UK GDPR before and after the Data (Use and Access) Act, 5 February 2026', () => {
    it('pins the version in force on the day of receipt and says why', async () => {
      const before = await create(admin, '2026-02-04T12:00:00Z');
      const after = await create(admin, '2026-02-06T12:00:00Z');
      expect(before).toMatchObject({ policyPack: 'uk-gdpr', policyVersion: '1.1.0' });
      expect(after).toMatchObject({ policyPack: 'uk-gdpr', policyVersion: '1.0.0' });
      const explainBefore = (await admin.get(`/requests/${before.id}/clock/explain`)).body;
      expect(explainBefore.policyVersion).toBe('1.1.0');
      expect(explainBefore.policyBasis).toContain('uk-gdpr 1.1.0');
      expect(explainBefore.policyBasis).toContain('2026-02-04');
      expect(explainBefore.policyBasis).toContain('1.0.0 applies to requests received from 2026-02-05');
      const explainAfter = (await admin.get(`/requests/${after.id}/clock/explain`)).body;
      expect(explainAfter.policyBasis).toContain('uk-gdpr 1.0.0 (in force from 2026-02-05)');
      expect(explainAfter.steps[0]).toBe(explainAfter.policyBasis);
    });

    it('a clarification stops the clock only under the new rules', async () => {
      const before = await create(admin, '2026-02-04T12:00:00Z');
      const after = await create(admin, '2026-02-06T12:00:00Z');
      for (const [r, due] of [
        [before, '2026-03-04'],
        [after, '2026-03-12'],
      ] as const) {
        expect((await admin.post(`/requests/${r.id}/clock/pauses`, { reason: 'clarification', at: '2026-02-09T10:00:00Z' })).status).toBe(202);
        const resumed = await admin.post(`/requests/${r.id}/clock/resume`, { at: '2026-02-14T10:00:00Z' });
        expect(resumed.status).toBe(202);
        expect(resumed.body.dueAt).toBe(endOfLocalDay(due, London).toISOString());
      }
    });
  });

  describe('custom packs', () => {
    it('registers a good pack, and refuses each kind of bad one, changing nothing', async () => {
      const good = await admin.post('/policies/custom/register', registration(customPack('acme-uk', '1.0.0', 20), 'major'));
      expect(good.status).toBe(202);
      expect(good.body).toEqual({ jurisdiction: 'GB', name: 'acme-uk', status: 'registered', version: '1.0.0' });

      const broken = { ...registration(customPack('acme-uk', '1.1.0')), pack: { ...customPack('acme-uk', '1.1.0'), rules: { default: { period: { amount: 0, unit: 'weeks' } } }, citations: [] } };
      const schema = await admin.post('/policies/custom/register', broken);
      expect(schema.status).toBe(400);
      expect(schema.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(schema.body.errors.length).toBeGreaterThanOrEqual(3);
      expect(schema.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['pack.citations']));

      const cases: Array<[string, unknown, number, string, string?]> = [
        ['packId differs from name', { ...registration(customPack('acme-uk', '1.1.0')), name: 'acme-other' }, 422, 'SVC-BE-1514', 'pack.packId'],
        ['not newer', registration(customPack('acme-uk', '1.0.0', 20), 'major'), 409, 'SVC-BE-1515'],
        ['bump does not match the release type', registration(customPack('acme-uk', '1.2.0', 20), 'patch'), 422, 'SVC-BE-1516', 'metadata.releaseType'],
        ['a longer response period', registration(customPack('acme-uk', '1.1.0', 45)), 422, 'SVC-BE-1517', 'pack.rules.default.period'],
        ['a built-in name', { ...registration(customPack('uk-gdpr', '2.0.0')) }, 422, 'SVC-BE-1514', 'name'],
      ];
      const larger = customPack('acme-uk', '1.1.0', 20);
      larger.rules.default.extension = { ...larger.rules.default.extension!, maxTotal: { amount: 3, unit: 'months' } };
      cases.push(['a larger extension', registration(larger), 422, 'SVC-BE-1517', 'pack.rules.default.extension']);
      for (const [what, body, status, code, field] of cases) {
        const res = await admin.post('/policies/custom/register', body);
        expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status, code });
        if (field) expect({ what, fields: res.body.errors.map((e: { field: string }) => e.field) }).toEqual({ what, fields: expect.arrayContaining([field]) });
      }
      expect((await admin.as(KEYS.operatorA.token).post('/policies/custom/register', registration(customPack('acme-uk', '1.1.0', 15)))).status).toBe(403);
      const listed = (await admin.get('/policies?packId=acme-uk')).body as unknown[];
      expect(listed).toEqual([]);
      expect((await admin.get('/policies/acme-uk?version=1.0.0')).status).toBe(200);
      expect((await admin.get('/policies/acme-uk?version=1.1.0')).status).toBe(404);
      expect((await otherTenant.get('/policies/acme-uk?version=1.0.0')).status).toBe(404);
    });

    it('under four eyes a version takes effect only once another admin approved it; the registrant may not', async () => {
      const earlier = await create(admin, '2026-03-02T12:00:00Z');
      expect(earlier.policyPack).toBe('uk-gdpr');
      const version = { jurisdiction: 'GB', name: 'acme-uk', version: '1.0.0' };
      const activation = { jurisdiction: 'gb', tenantId: 'tenant-a', version: '1.0.0' };

      const unreviewed = await admin.post('/policies/custom/activate', activation);
      expect([unreviewed.status, unreviewed.body.code, unreviewed.body.registeredBy]).toEqual([409, 'SVC-BE-1521', apiKeyId(KEYS.adminA.token)]);
      expect(unreviewed.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await admin.get('/policies?jurisdiction=GB')).body.map((p: { packId: string }) => p.packId)).toEqual(['uk-gdpr']);
      expect((await create(admin, '2026-03-02T12:00:00Z')).policyPack).toBe('uk-gdpr');

      const own = await admin.post('/policies/custom/approve', version);
      expect([own.status, own.body.code]).toEqual([403, 'SVC-BE-1522']);
      const refused: Array<[string, ApiClient, unknown, number, string]> = [
        ['an unknown version', approver, { ...version, version: '9.9.9' }, 404, 'SVC-BE-1518'],
        ['another tenant', otherTenant, version, 404, 'SVC-BE-1518'],
        ['no name', approver, { jurisdiction: 'GB', version: '1.0.0' }, 400, 'SVC-BE-1102'],
        ['an unknown field', approver, { ...version, approved: true }, 400, 'SVC-BE-1102'],
        ['an operator', admin.as(KEYS.operatorA.token), version, 403, 'SVC-BE-1302'],
        ['an admin confined to a workspace', north, version, 403, 'SVC-BE-1302'],
      ];
      for (const [who, client, body, status, code] of refused) {
        const res = await client.post('/policies/custom/approve', body);
        expect({ who, status: res.status, code: res.body.code }).toEqual({ who, status, code });
      }
      expect((await admin.post('/policies/custom/activate', activation)).body.code).toBe('SVC-BE-1521');

      // Two admins approve at once: one approval is recorded (one event on the audit chain, counted below), both learn whose.
      const [a, b] = await Promise.all([approver.post('/policies/custom/approve', version), reviewer.post('/policies/custom/approve', version)]);
      expect([a.status, b.status]).toEqual([202, 202]);
      expect(b.body).toEqual(a.body);
      expect(a.body).toMatchObject({ ...version, status: 'approved', registeredBy: apiKeyId(KEYS.adminA.token), approvedAt: expect.any(String) });
      expect([apiKeyId(KEYS.approverA.token), apiKeyId(KEYS.reviewerA.token)]).toContain(a.body.approvedBy);

      const activated = await admin.post('/policies/custom/activate', activation);
      expect(activated.status).toBe(202);
      expect(activated.body).toEqual({ jurisdiction: 'GB', name: 'acme-uk', status: 'activated', tenantId: 'tenant-a', version: '1.0.0', workspaceId: null });
      const tenantWide = await eventually(
        () => create(admin, '2026-03-02T12:00:00Z'),
        (r) => r.policyPack === 'acme-uk',
      );
      expect(tenantWide).toMatchObject({ policyPack: 'acme-uk', policyVersion: '1.0.0', dueAt: dueAfterDays('2026-03-02', 20) });
      expect((await admin.get(`/requests/${earlier.id}`)).body).toMatchObject({ policyPack: 'uk-gdpr', dueAt: earlier.dueAt });
      expect((await create(otherTenant, '2026-03-02T12:00:00Z')).policyPack).toBe('uk-gdpr');
    });

    it('activation by tenant and by workspace changes the dueAt of new requests only; deactivation goes back', async () => {
      expect((await admin.post('/policies/custom/register', registration(customPack('acme-uk', '1.1.0', 15)))).status).toBe(202);
      expect((await approver.post('/policies/custom/approve', { jurisdiction: 'GB', name: 'acme-uk', version: '1.1.0' })).status).toBe(202);

      expect((await admin.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: 'tenant-b', version: '1.0.0' })).status).toBe(404);
      expect((await admin.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: 'tenant-a', version: '9.9.9' })).body.code).toBe('SVC-BE-1518');

      const forNorth = await north.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: 'tenant-a', version: '1.1.0', workspaceId: 'north' });
      expect(forNorth.status).toBe(202);
      expect(forNorth.body.workspaceId).toBe('north');
      expect((await north.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: 'tenant-a', version: '1.1.0' })).status).toBe(404);
      const inNorth = await eventually(
        () => create(north, '2026-03-02T12:00:00Z'),
        (r) => r.policyVersion === '1.1.0',
      );
      expect(inNorth).toMatchObject({ policyPack: 'acme-uk', policyVersion: '1.1.0', dueAt: dueAfterDays('2026-03-02', 15) });
      expect((await create(admin, '2026-03-02T12:00:00Z')).policyVersion).toBe('1.0.0');

      const active = (await north.get('/policies?jurisdiction=GB')).body as Array<Record<string, any>>;
      expect(active.map((p) => [p.packId, p.version, p.source, p.activatedFor])).toEqual([
        ['acme-uk', '1.1.0', 'custom', { jurisdiction: 'GB', workspaceId: 'north' }],
        ['uk-gdpr', '1.0.0', 'built_in', null],
      ]);

      const ended = await north.post('/policies/custom/deactivate', { tenantId: 'tenant-a', workspaceId: 'north' });
      expect(ended.body).toEqual({ status: 'deactivated', tenantId: 'tenant-a', workspaceId: 'north', jurisdictions: ['GB'] });
      expect(
        (
          await eventually(
            () => create(north, '2026-03-02T12:00:00Z'),
            (r) => r.policyVersion === '1.0.0',
          )
        ).policyVersion,
      ).toBe('1.0.0');
      expect((await north.post('/policies/custom/deactivate', { tenantId: 'tenant-a', workspaceId: 'north' })).body.code).toBe('SVC-BE-1520');
      expect((await otherTenant.post('/policies/custom/deactivate', { tenantId: 'tenant-a' })).status).toBe(404);
      expect((await admin.as(KEYS.operatorA.token).post('/policies/custom/deactivate', { tenantId: 'tenant-a' })).status).toBe(403);
    });

    it('without four eyes (tenant B) one admin registers and activates at once, as before', async () => {
      expect((await otherTenant.post('/policies/custom/register', registration(customPack('beta-uk', '1.0.0', 25), 'major'))).status).toBe(202);
      const activated = await otherTenant.post('/policies/custom/activate', { jurisdiction: 'GB', tenantId: 'tenant-b', version: '1.0.0' });
      expect([activated.status, activated.body.status]).toEqual([202, 'activated']);
      expect(
        (
          await eventually(
            () => create(otherTenant, '2026-03-02T12:00:00Z'),
            (r) => r.policyPack === 'beta-uk',
          )
        ).dueAt,
      ).toBe(dueAfterDays('2026-03-02', 25));
      const ownApproval = await otherTenant.post('/policies/custom/approve', { jurisdiction: 'GB', name: 'beta-uk', version: '1.0.0' });
      expect([ownApproval.status, ownApproval.body.approvedBy]).toEqual([202, apiKeyId(KEYS.adminB.token)]);
    });
  });

  describe('upgrade proposals', () => {
    let openRequest: Record<string, any>;

    it('nothing to upgrade is a 409', async () => {
      const res = await otherTenant.post('/policies/upgrades/propose', undefined);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('SVC-BE-1511');
    });

    it('propose → approve → apply under four eyes, out-of-order steps refused, another tenant 404', async () => {
      openRequest = await create(admin, '2026-03-02T12:00:00Z');
      expect(openRequest).toMatchObject({ policyPack: 'acme-uk', policyVersion: '1.0.0' });
      const proposed = await admin.post('/policies/upgrades/propose', { repinOpenRequests: true });
      expect(proposed.status).toBe(202);
      expect(proposed.body.status).toBe('pending_approval');
      const id = proposed.body.proposalId;
      const shown = (await admin.get(`/policies/upgrades/${id}`)).body;
      expect(shown.changes).toEqual([
        expect.objectContaining({ source: 'custom', packId: 'acme-uk', jurisdiction: 'GB', workspaceId: null, from: '1.0.0', to: '1.1.0', changelog: '1.1.0: Release 1.1.0.' }),
      ]);
      expect(shown.changes[0].openRequests).toBeGreaterThanOrEqual(1);
      expect((await otherTenant.get(`/policies/upgrades/${id}`)).status).toBe(404);
      expect((await otherTenant.post(`/policies/upgrades/${id}/approve`, undefined)).status).toBe(404);
      expect((await admin.as(KEYS.operatorA.token).post(`/policies/upgrades/${id}/approve`, undefined)).status).toBe(403);

      const early = await admin.post(`/policies/upgrades/${id}/apply`, undefined);
      expect([early.status, early.body.code]).toEqual([409, 'SVC-BE-1512']);
      const own = await admin.post(`/policies/upgrades/${id}/approve`, undefined);
      expect([own.status, own.body.code]).toEqual([403, 'SVC-BE-1513']);
      const [a, b] = await Promise.all([approver.post(`/policies/upgrades/${id}/approve`, undefined), approver.post(`/policies/upgrades/${id}/approve`, undefined)]);
      expect([a.status, b.status].sort()).toEqual([202, 409]);
      const [x, y] = await Promise.all([admin.post(`/policies/upgrades/${id}/apply`, undefined), approver.post(`/policies/upgrades/${id}/apply`, undefined)]);
      expect([x.status, y.status].sort()).toEqual([202, 409]);
      const done = (await admin.get(`/policies/upgrades/${id}`)).body;
      expect(done).toMatchObject({ status: 'applied', proposedBy: expect.any(String), approvedBy: expect.any(String), appliedBy: expect.any(String) });
      expect(done.approvedBy).not.toBe(done.proposedBy);
      expect(((await admin.get('/policies/upgrades?status=applied')).body as unknown[]).length).toBe(1);
    });

    it('apply re-pins open requests (a clock event on their timeline) and new requests use the new version', async () => {
      const moved = await eventually(
        () => admin.get(`/requests/${openRequest.id}`).then((r) => r.body),
        (r) => r.policyVersion === '1.1.0',
      );
      expect(moved).toMatchObject({ policyPack: 'acme-uk', policyVersion: '1.1.0', dueAt: dueAfterDays('2026-03-02', 15) });
      const explained = (await admin.get(`/requests/${openRequest.id}/clock/explain`)).body;
      expect(explained.repins).toEqual([expect.objectContaining({ fromVersion: '1.0.0', toVersion: '1.1.0' })]);
      const timeline = await eventually(
        () => admin.get(`/requests/${openRequest.id}/timeline`).then((r) => r.body.events as Array<{ eventType: string; payload: Record<string, any> }>),
        (events) => events.some((e) => e.eventType === 'request_policy_repinned'),
      );
      const repinned = timeline.find((e) => e.eventType === 'request_policy_repinned');
      expect(repinned?.payload).toMatchObject({ fromVersion: '1.0.0', policyVersion: '1.1.0', previousDueAt: openRequest.dueAt, shortened: true });
      expect(
        (
          await eventually(
            () => create(admin, '2026-03-02T12:00:00Z'),
            (r) => r.policyVersion === '1.1.0',
          )
        ).policyVersion,
      ).toBe('1.1.0');
      expect((await admin.post('/policies/upgrades/propose', undefined)).body.code).toBe('SVC-BE-1511');
    });

    it('under four eyes a proposal offers only approved custom versions; one without re-pinning leaves open requests on their version', async () => {
      expect((await admin.post('/policies/custom/register', registration(customPack('acme-uk', '1.1.1', 15), 'patch'))).status).toBe(202);
      expect((await admin.post('/policies/upgrades/propose', {})).body.code).toBe('SVC-BE-1511');
      expect((await reviewer.post('/policies/custom/approve', { jurisdiction: 'GB', name: 'acme-uk', version: '1.1.1' })).status).toBe(202);
      const open = await create(admin, '2026-03-02T12:00:00Z');
      const { proposalId } = (await admin.post('/policies/upgrades/propose', {})).body;
      expect((await approver.post(`/policies/upgrades/${proposalId}/approve`, undefined)).status).toBe(202);
      expect((await admin.post(`/policies/upgrades/${proposalId}/apply`, undefined)).status).toBe(202);
      await eventually(
        () => create(admin, '2026-03-02T12:00:00Z'),
        (r) => r.policyVersion === '1.1.1',
      );
      expect((await admin.get(`/requests/${open.id}`)).body.policyVersion).toBe('1.1.0');
    });
  });

  describe('audit', () => {
    it('every change is on the tenant-wide audit chain tenant:<id>, which the signed checkpoints cover', async () => {
      // 3 registrations and their 3 approvals (one of two at once); 2 activations and 1 deactivation, each with its pack set;
      // 2 proposals × (proposed, approved, applied + pack set). Refused activations and approvals add nothing.
      const expected = 3 + 3 + 2 * 2 + 2 + 2 * 4;
      const publisher = getSystem().services.get('audit-ledger')!.app.get(CheckpointPublisher);
      // A checkpoint covers the chain heads that moved since the one before: the tenant chain's head is in the first made after its last entry.
      let covered = 0;
      await eventually(
        async () => {
          for (const made of (await publisher.run()).filter((c) => c.tenantId === 'tenant-a')) {
            const detail = (await admin.get(`/audit/checkpoints/${made.checkpointId}`)).body as { leaves: Array<{ requestId: string; sequence: number }> };
            const leaf = detail.leaves.find((l) => l.requestId === 'tenant:tenant-a');
            if (leaf) covered = Math.max(covered, leaf.sequence);
          }
          return covered;
        },
        (sequence) => sequence === expected,
      );
      expect(covered).toBe(expected);
    });
  });

  if (options.distributed) {
    describe('with policy-registry stopped', () => {
      it('intake keeps pinning from the last known activations', async () => {
        const system = getSystem();
        await system.stop('policy-registry');
        try {
          expect((await admin.get('/policies')).status).toBe(503);
          const created = await create(admin, '2026-03-02T12:00:00Z');
          expect(created).toMatchObject({ policyPack: 'acme-uk', policyVersion: '1.1.1' });
          expect((await create(north, '2026-02-04T12:00:00Z', 'DE')).policyPack).toBe('eu-gdpr');
        } finally {
          await system.restart('policy-registry');
        }
        expect((await admin.get('/policies')).status).toBe(200);
      });
    });
  }
}
