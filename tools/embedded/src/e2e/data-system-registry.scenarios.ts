import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSystems } from '@dsar/services/fulfilment-delivery';
import type { TestSystem } from './systems';
import { ApiClient, type ApiResponse } from './api-client';
import { runCli } from './cli-process';
import { KEYS } from './gateway-intake.scenarios';
import { filesUnder } from './verification.scenarios';

export interface RegistryScenarioOptions {
  /** Where the system keeps its files (STORAGE_DIR): the webhook secrets are looked for there, in clear. */
  storageDir: string;
}

/** A webhook secret per Standard Webhooks, with a marker that would show in clear on disk. */
const SECRET = `whsec_${Buffer.from('REGISTRY-SECRET-MARKER-0123456789abcdef').toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.from('ANOTHER-SECRET-MARKER-0123456789abcdefgh').toString('base64')}`;

/** A valid definition; override any part. */
function system(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { displayName: 'Shop database', owner: { email: 'shop-owner@tenant-a.example' }, actions: ['access', 'erasure'], identityTypes: ['email'], mode: 'pull', ...overrides };
}

/**
 * Issue [fanout], the data-system registry end to end through the gateway (GET/PUT/DELETE /data-systems): create,
 * replace, list, read and delete; every bad input refused with a problem and nothing changed; another tenant's
 * systems unknown (404); a workspace-confined key and a role without the permission refused (403); two PUTs of a new
 * key at once making one row; the webhook secret never returned and never on disk in clear.
 */
export function dataSystemRegistryScenarios(getSystem: () => TestSystem, options: RegistryScenarioOptions): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  const systems = () => getSystem().services.get('fulfilment-delivery')!.app.get(DataSystems);
  const put = (key: string, body: unknown, token = KEYS.adminA.token) => api.as(token).call('PUT', `/api/v1/data-systems/${key}`, { json: body });
  const putRaw = (key: string, raw: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => api.call('PUT', `/api/v1/data-systems/${key}`, { raw, headers });
  const del = (key: string, token = KEYS.adminA.token) => api.as(token).call('DELETE', `/api/v1/data-systems/${key}`);
  const list = (token = KEYS.adminA.token) => api.as(token).get('/data-systems');
  const get = (key: string, token = KEYS.adminA.token) => api.as(token).get(`/data-systems/${key}`);

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, code: res.body?.code, type: res.headers.get('content-type') }).toEqual({ status, code, type: expect.stringContaining('application/problem+json') });
  }

  /** What tenant A's registry holds, to compare before and after a refused call. */
  async function registry(): Promise<unknown> {
    const res = await list();
    expect(res.status).toBe(200);
    return res.body;
  }

  describe('create, replace, list, read and delete', () => {
    it('creates a system (201), with the defaults filled in', async () => {
      const res = await put('source', system({ dataCategories: ['contact_details', 'orders'] }));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        key: 'source',
        displayName: 'Shop database',
        owner: { email: 'shop-owner@tenant-a.example' },
        actions: ['access', 'erasure'],
        identityTypes: ['email'],
        dataCategories: ['contact_details', 'orders'],
        after: [],
        mode: 'pull',
        sla: { expectedHours: 72, timeoutHours: 168, onTimeout: 'pause' },
        paused: false,
        required: true,
        version: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await get('source')).body).toEqual(res.body);
    });

    it('replaces it (200, version + 1), keeping when it was created', async () => {
      const before = (await get('source')).body;
      const res = await put('source', system({ displayName: 'Shop DB (primary)', sla: { expectedHours: 24, timeoutHours: 48, onTimeout: 'skip' }, required: false }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        key: 'source',
        displayName: 'Shop DB (primary)',
        dataCategories: [],
        sla: { expectedHours: 24, timeoutHours: 48, onTimeout: 'skip' },
        required: false,
        version: 2,
      });
      expect(res.body.createdAt).toBe(before.createdAt);
    });

    it('the same definition again changes nothing (200, same version): a PUT can be repeated', async () => {
      const before = (await get('source')).body;
      const res = await put('source', system({ displayName: 'Shop DB (primary)', sla: { expectedHours: 24, timeoutHours: 48, onTimeout: 'skip' }, required: false }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(before);
    });

    it('a webhook system shows its URL and that a secret is set, never the secret; storage holds it encrypted', async () => {
      const res = await put('crm', system({ displayName: 'CRM', mode: 'webhook', webhook: { url: 'https://crm.tenant-a.example/dsar', secret: SECRET }, after: ['source'] }));
      expect(res.status).toBe(201);
      expect(res.body.webhook).toEqual({ url: 'https://crm.tenant-a.example/dsar', secretSet: true });
      expect(JSON.stringify(res.body)).not.toContain('whsec_');
      expect(JSON.stringify((await list()).body)).not.toContain('whsec_');
      expect(await systems().webhookSecret('tenant-a', 'crm')).toBe(SECRET);
      // The secret's file is encrypted under the tenant's key: neither the secret nor its bytes are on disk in clear.
      const files = filesUnder(join(options.storageDir, 'data'));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const bytes = readFileSync(file);
        expect({ file, clear: bytes.includes(SECRET) || bytes.includes('REGISTRY-SECRET-MARKER') }).toEqual({ file, clear: false });
      }
      // The same definition and secret: nothing changes; another secret: version + 1, and the new secret is the one used.
      expect((await put('crm', system({ displayName: 'CRM', mode: 'webhook', webhook: { url: 'https://crm.tenant-a.example/dsar', secret: SECRET }, after: ['source'] }))).body.version).toBe(1);
      const rotated = await put('crm', system({ displayName: 'CRM', mode: 'webhook', webhook: { url: 'https://crm.tenant-a.example/dsar', secret: OTHER_SECRET }, after: ['source'] }));
      expect({ status: rotated.status, version: rotated.body.version }).toEqual({ status: 200, version: 2 });
      expect(await systems().webhookSecret('tenant-a', 'crm')).toBe(OTHER_SECRET);
      // The replaced secret's file is gone: one file, the current secret's.
      expect(filesUnder(join(options.storageDir, 'data')).filter((f) => f.includes(join('data-systems', 'crm')))).toHaveLength(1);
    });

    it('lists the live systems sorted by key', async () => {
      await put('analytics', system({ displayName: 'Analytics', actions: ['access'] }));
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.items.map((s: { key: string }) => s.key)).toEqual(['analytics', 'crm', 'source']);
    });

    it('an operator and an auditor may read the registry', async () => {
      expect((await list(KEYS.operatorA.token)).status).toBe(200);
      expect((await get('source', KEYS.auditorA.token)).status).toBe(200);
    });

    it('deletes a system (204): it is gone from the list and reads, and its key can be registered again, its version going on', async () => {
      const res = await del('analytics');
      expect(res.status).toBe(204);
      expectProblem(await get('analytics'), 404, 'SVC-BE-1801');
      expect((await list()).body.items.map((s: { key: string }) => s.key)).toEqual(['crm', 'source']);
      expectProblem(await del('analytics'), 404, 'SVC-BE-1801');
      const again = await put('analytics', system({ displayName: 'Analytics again', actions: ['access'] }));
      expect({ status: again.status, version: again.body.version }).toEqual({ status: 201, version: 2 });
      expect((await del('analytics')).status).toBe(204);
      // Every change is kept, with who made it: the definition each version had, and the deletes.
      const history = await systems().history('tenant-a', 'analytics');
      expect(history.map((h) => [h.change, h.version, h.definition.displayName, h.by.length > 0])).toEqual([
        ['created', 1, 'Analytics', true],
        ['deleted', 1, 'Analytics', true],
        ['created', 2, 'Analytics again', true],
        ['deleted', 2, 'Analytics again', true],
      ]);
    });
  });

  describe('bad input: a problem, and nothing changed', () => {
    const cases: [string, () => Promise<ApiResponse>, number, string][] = [
      ['malformed JSON', () => putRaw('billing', '{"displayName": '), 400, 'SVC-BE-1101'],
      ['an unknown field', () => put('billing', system({ colour: 'red' })), 400, 'SVC-BE-1102'],
      ['no owner', () => put('billing', system({ owner: {} })), 422, 'SVC-BE-1802'],
      ['no action', () => put('billing', system({ actions: [] })), 400, 'SVC-BE-1102'],
      ['an unknown mode', () => put('billing', system({ mode: 'carrier-pigeon' })), 400, 'SVC-BE-1102'],
      ['a key that breaks the pattern', () => put('Billing!', system()), 400, 'SVC-BE-1102'],
      ['an after that names no system', () => put('billing', system({ after: ['ghost'] })), 422, 'SVC-BE-1802'],
      ['an after that names a deleted system', () => put('billing', system({ after: ['analytics'] })), 422, 'SVC-BE-1802'],
      ['an after that names the system itself', () => put('billing', system({ after: ['billing'] })), 422, 'SVC-BE-1802'],
      ['an after that closes a cycle', () => put('source', system({ after: ['crm'] })), 422, 'SVC-BE-1802'],
      ['mode webhook without webhook', () => put('billing', system({ mode: 'webhook' })), 422, 'SVC-BE-1802'],
      ['webhook settings for mode pull', () => put('billing', system({ webhook: { url: 'https://billing.example/h', secret: SECRET } })), 422, 'SVC-BE-1802'],
      ['an http webhook URL (DATA_SYSTEM_WEBHOOK_ALLOW_HTTP off)', () => put('billing', system({ mode: 'webhook', webhook: { url: 'http://billing.example/h', secret: SECRET } })), 422, 'SVC-BE-1802'],
      ['a secret that is no Standard Webhooks secret', () => put('billing', system({ mode: 'webhook', webhook: { url: 'https://billing.example/h', secret: 'hunter2' } })), 400, 'SVC-BE-1102'],
      ['a timeout shorter than the expected turnaround', () => put('billing', system({ sla: { expectedHours: 48, timeoutHours: 24, onTimeout: 'skip' } })), 422, 'SVC-BE-1802'],
      ['a delete of a system another comes after', () => del('source'), 409, 'SVC-BE-1803'],
      ['a delete of an unknown system', () => del('ghost'), 404, 'SVC-BE-1801'],
    ];
    it.each(cases)('%s', async (_what, call, status, code) => {
      const before = await registry();
      const historyBefore = await systems().history('tenant-a', 'source');
      const res = await call();
      expectProblem(res, status, code);
      // A refusal never repeats a secret it was sent.
      for (const secret of [SECRET, 'hunter2']) expect(JSON.stringify(res.body)).not.toContain(secret);
      expect(await registry()).toEqual(before);
      expect(await systems().history('tenant-a', 'source')).toEqual(historyBefore);
    });

    it('the 422 names the field and the 409 the systems that come after', async () => {
      const cycle = await put('source', system({ after: ['crm'] }));
      expect(cycle.body.errors).toEqual([{ field: 'after', message: 'makes a cycle: source → crm → source' }]);
      const unknown = await put('billing', system({ after: ['source', 'ghost'], sla: { expectedHours: 5, timeoutHours: 4, onTimeout: 'pause' } }));
      expect(unknown.body.errors).toEqual([
        { field: 'after[1]', message: 'names no data system of the tenant: ghost' },
        { field: 'sla.timeoutHours', message: 'must be at least sla.expectedHours (5)' },
      ]);
      const inUse = await del('source');
      expect(inUse.body.dependants).toEqual(['crm']);
    });

    it('reading an unknown system is a 404', async () => {
      expectProblem(await get('ghost'), 404, 'SVC-BE-1801');
    });
  });

  describe('tenants, workspaces and roles', () => {
    it("another tenant's systems are unknown (404) and its list is its own", async () => {
      expectProblem(await get('source', KEYS.adminB.token), 404, 'SVC-BE-1801');
      expectProblem(await del('source', KEYS.adminB.token), 404, 'SVC-BE-1801');
      expect((await list(KEYS.adminB.token)).body).toEqual({ items: [] });
      // Its own system of the same key is another system, and A's is untouched.
      const before = await registry();
      expect((await put('source', system({ displayName: 'B shop' }), KEYS.adminB.token)).status).toBe(201);
      expect((await list(KEYS.adminB.token)).body.items.map((s: { displayName: string }) => s.displayName)).toEqual(['B shop']);
      expect(await registry()).toEqual(before);
      // An `after` names the caller's own tenant's systems only.
      expectProblem(await put('warehouse', system({ after: ['crm'] }), KEYS.adminB.token), 422, 'SVC-BE-1802');
    });

    it('a key confined to a workspace is refused (403): the registry is tenant-wide', async () => {
      const before = await registry();
      expectProblem(await list(KEYS.northAdminA.token), 403, 'SVC-BE-1302');
      expectProblem(await get('source', KEYS.northAdminA.token), 403, 'SVC-BE-1302');
      expectProblem(await put('billing', system(), KEYS.northAdminA.token), 403, 'SVC-BE-1302');
      expectProblem(await del('crm', KEYS.northAdminA.token), 403, 'SVC-BE-1302');
      expect(await registry()).toEqual(before);
    });

    it('a role without the permission is refused (403)', async () => {
      const before = await registry();
      // Readers may not manage; intake may not even read.
      expectProblem(await put('billing', system(), KEYS.operatorA.token), 403, 'SVC-BE-1302');
      expectProblem(await put('billing', system(), KEYS.auditorA.token), 403, 'SVC-BE-1302');
      expectProblem(await del('crm', KEYS.operatorA.token), 403, 'SVC-BE-1302');
      expectProblem(await list(KEYS.intakeA.token), 403, 'SVC-BE-1302');
      expect(await registry()).toEqual(before);
    });
  });

  describe('the CLI (dsar systems …)', () => {
    let work: string;
    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), 'dsar-systems-cli-'));
    });
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    const dsar = (args: string[], token = KEYS.adminA.token) =>
      runCli(['-o', 'json', ...args], { cwd: work, env: { PATH: process.env.PATH ?? '', HOME: work, NODE_OPTIONS: '', DSAR_BASE_URL: `${getSystem().gatewayUrl}/api/v1`, DSAR_TOKEN: token } });

    it('puts a system from a file with flags over it, reads, lists and deletes it', async () => {
      writeFileSync(join(work, 'tickets.json'), JSON.stringify(system({ displayName: 'Tickets', actions: ['access'] })));
      const created = await dsar(['systems', 'put', 'tickets', '--data', '@tickets.json', '--after', 'source', '--timeout-hours', '100', '--required', 'false']);
      expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
      expect(created.json.data).toMatchObject({
        key: 'tickets',
        displayName: 'Tickets',
        after: ['source'],
        sla: { expectedHours: 72, timeoutHours: 100, onTimeout: 'pause' },
        required: false,
        version: 1,
      });
      expect((await dsar(['systems', 'get', 'tickets'])).json.data.version).toBe(1);
      expect((await dsar(['systems', 'list'])).json.data.items.map((s: { key: string }) => s.key)).toContain('tickets');
      const deleted = await dsar(['systems', 'delete', 'tickets']);
      expect({ code: deleted.code, ok: deleted.json.ok }).toEqual({ code: 0, ok: true });
      const gone = await dsar(['systems', 'get', 'tickets']);
      expect({ code: gone.code, error: gone.json.error.code }).toEqual({ code: 2, error: 'SVC-BE-1801' });
    });

    it('exits 2 with the problem of a refused PUT, and nothing changes', async () => {
      const before = await registry();
      const refused = await dsar(['systems', 'put', 'source', '--data', JSON.stringify(system({ after: ['crm'] }))]);
      expect({ code: refused.code, error: refused.json.error.code }).toEqual({ code: 2, error: 'SVC-BE-1802' });
      expect(await registry()).toEqual(before);
    });
  });

  describe('concurrency', () => {
    it('two PUTs of a new key at once: one 201, one 200, one row', async () => {
      const [a, b] = await Promise.all([put('billing', system({ displayName: 'Billing (a)' })), put('billing', system({ displayName: 'Billing (b)' }))]);
      expect([a.status, b.status].sort()).toEqual([200, 201]);
      expect([a.body.version, b.body.version].sort()).toEqual([1, 2]);
      const items = (await list()).body.items.filter((s: { key: string }) => s.key === 'billing');
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ version: 2, displayName: (a.status === 200 ? a : b).body.displayName });
    });

    it('two systems made to come after each other at once: one is refused (no cycle is ever stored)', async () => {
      expect((await put('ledger', system({ displayName: 'Ledger' }))).status).toBe(201);
      const [x, y] = await Promise.all([put('ledger', system({ displayName: 'Ledger', after: ['billing'] })), put('billing', system({ displayName: 'Billing', after: ['ledger'] }))]);
      expect([x.status, y.status].sort()).toEqual([200, 422]);
    });
  });
}
