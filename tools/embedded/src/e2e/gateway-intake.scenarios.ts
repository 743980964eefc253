import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { requestFingerprint } from '@dsar/platform/idempotency';
import { ROUTES } from '@dsar/services/api-gateway';
import type { TestSystem } from './systems';
import { ApiClient, intake } from './api-client';

/** API keys of the scenario: two tenants, a workspace-confined caller, one key per role, and a second operator and admin of tenant A. */
export const KEYS = {
  adminA: { token: 'tenant-a-admin-key-0000000000000', tenantId: 'tenant-a', roles: ['admin'] },
  intakeA: { token: 'tenant-a-intake-key-000000000000', tenantId: 'tenant-a', roles: ['intake'] },
  auditorA: { token: 'tenant-a-auditor-key-00000000000', tenantId: 'tenant-a', roles: ['auditor'] },
  workspaceA: { token: 'tenant-a-ws-north-key-0000000000', tenantId: 'tenant-a', workspaceId: 'north', roles: ['operator'] },
  /** A second reviewer of tenant A, tenant-wide (a workspace-confined key does not see requests captured without a workspace). */
  operatorA: { token: 'tenant-a-operator-key-0000000000', tenantId: 'tenant-a', roles: ['operator'] },
  operatorB: { token: 'tenant-b-operator-key-0000000000', tenantId: 'tenant-b', roles: ['operator'] },
  /** A second admin of tenant A (four eyes on pack upgrades), and tenant B's admin. */
  approverA: { token: 'tenant-a-approver-key-0000000000', tenantId: 'tenant-a', roles: ['admin'] },
  /** A third admin of tenant A: two reviewers approving one custom pack version at once. */
  reviewerA: { token: 'tenant-a-reviewer-key-0000000000', tenantId: 'tenant-a', roles: ['admin'] },
  adminB: { token: 'tenant-b-admin-key-0000000000000', tenantId: 'tenant-b', roles: ['admin'] },
  /** An admin confined to tenant A's workspace `north`. */
  northAdminA: { token: 'tenant-a-north-admin-key-0000000', tenantId: 'tenant-a', workspaceId: 'north', roles: ['admin'] },
  /** Takes requests in for tenant A's workspace `south`, which the north keys may not see. */
  southIntakeA: { token: 'tenant-a-south-intake-key-000000', tenantId: 'tenant-a', workspaceId: 'south', roles: ['intake'] },
  queueC: { token: 'tenant-c-queue-key-0000000000000', tenantId: 'tenant-c', roles: ['operator'] },
  /** Tenant C's queue seen from its workspace `north`. */
  queueCNorth: { token: 'tenant-c-north-queue-key-0000000', tenantId: 'tenant-c', workspaceId: 'north', roles: ['operator'] },
};
export const API_KEYS_JSON = JSON.stringify(Object.values(KEYS));

const keyId = (token: string) => `key:${createHash('sha256').update(token).digest('hex').slice(0, 16)}`;

/**
 * Issue [gateway-intake] end to end through the gateway: the same scenarios run
 * in embedded mode and against PostgreSQL and Kafka.
 */
export function gatewayIntakeScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  describe('intake and read-your-writes', () => {
    it('records a request (202), and the detail and timeline show it right away', async () => {
      const created = await api.post('/requests', intake());
      expect(created.status).toBe(202);
      expect(Object.keys(created.body).sort()).toEqual(['id', 'receivedAt', 'status']);
      expect(created.body.status).toBe('received');

      const detail = await api.get(`/requests/${created.body.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({
        id: created.body.id,
        status: 'received',
        receivedAt: created.body.receivedAt,
        requestType: 'access',
        requestTypeInferred: false,
        locale: 'en',
        jurisdiction: 'DE',
        clockMode: 'receipt',
        policyPack: 'eu-gdpr',
        requestor: { type: 'subject', name: 'Jane Doe', email: 'jane@example.org' },
        authority: null,
        appeals: [],
        intakeSource: { channel: 'email', receivedAt: '2026-03-03T10:00:00Z' },
      });
      // One month from 3 March is Friday 3 April 2026: Good Friday, then Easter Monday, in Germany → Tuesday 7 April, end of day CEST.
      expect(detail.body.dueAt).toBe('2026-04-07T21:59:59.999Z');

      const timeline = await api.get(`/requests/${created.body.id}/timeline`);
      expect(timeline.status).toBe(200);
      expect(timeline.body.requestId).toBe(created.body.id);
      expect(timeline.body.events[0]).toMatchObject({ eventType: 'request_created', payload: { requestId: created.body.id, status: 'received' } });
      expect(timeline.body.events[0].payload).not.toHaveProperty('rawText');
    });

    it('capture answers with dueAt counted from the channel receipt time', async () => {
      const captured = await api.post('/requests/capture', intake({ jurisdiction: 'us-ca', requestType: 'deletion' }, { receivedAt: '2026-10-01T17:00:00Z' }));
      expect(captured.status).toBe(202);
      expect(Object.keys(captured.body).sort()).toEqual(['dueAt', 'id', 'receivedAt', 'status']);
      // 45 calendar days with 1 October as day one (11 CCR 7021(b)) is Saturday 14 November, not rolled; end of day PST.
      expect(captured.body.dueAt).toBe('2026-11-15T07:59:59.999Z');
      const detail = await api.get(`/requests/${captured.body.id}`);
      expect(detail.body).toMatchObject({ jurisdiction: 'US-CA', policyPack: 'us-ca-ccpa', dueAt: captured.body.dueAt });
    });

    it('keeps a receivedAt the client recorded, and refuses one before the channel receipt', async () => {
      const ok = await api.post('/requests', intake({ receivedAt: '2026-03-04T08:00:00Z' }));
      expect(ok.status).toBe(202);
      expect(ok.body.receivedAt).toBe('2026-03-04T08:00:00.000Z');
      const early = await api.post('/requests', intake({ receivedAt: '2026-03-01T08:00:00Z' }));
      // Well-formed times in the wrong order: a rule on the values, 422 naming the field.
      expect(early.status).toBe(422);
      expect(early.body).toMatchObject({ code: 'SVC-BE-1510', errors: [expect.objectContaining({ field: 'receivedAt' })] });
      const future = await api.post('/requests', intake({}, { receivedAt: getSystem().clock.later(86_400_000) }));
      expect(future.status).toBe(422);
      expect(future.body.code).toBe('SVC-BE-1510');
      expect(future.body.errors).toEqual(expect.arrayContaining([{ field: 'intakeSource.receivedAt', message: 'must not be in the future' }]));
    });
  });

  describe('request type inference', () => {
    it.each([
      ['en', 'Under the CCPA: do not sell or share my personal information.', 'opt_out'],
      ['en', 'I want you to delete all my data and my account.', 'deletion'],
      ['de', 'Hiermit verlange ich die Löschung meiner personenbezogenen Daten.', 'deletion'],
      ['de', 'Bitte erteilen Sie mir Auskunft nach Art. 15 DSGVO.', 'access'],
      ['fr', 'Je souhaite exercer mon droit de rectification de mes données.', 'rectification'],
      ['es', 'Solicito la portabilidad de mis datos personales.', 'portability'],
      ['pt', 'Venho por este meio solicitar a eliminação dos meus dados.', 'deletion'],
    ])('%s: "%s" → %s', async (_lang, rawText, expected) => {
      const created = await api.post('/requests', intake({ requestType: undefined }, { rawText }));
      expect(created.status).toBe(202);
      const detail = await api.get(`/requests/${created.body.id}`);
      expect(detail.body.requestType).toBe(expected);
      expect(detail.body.requestTypeInferred).toBe(true);
    });
  });

  describe("the requester's language", () => {
    const GERMAN = 'Ich möchte gemäß Art. 15 DSGVO Auskunft über meine Daten';

    it.each([
      ['inferred type', '/requests', undefined],
      ["the client's type", '/requests', 'access'],
      ["the client's other type, on capture", '/requests/capture', 'deletion'],
    ])('German words give locale `de` (%s)', async (_case, path, requestType) => {
      const created = await api.post(path, intake({ requestType }, { rawText: GERMAN }));
      expect(created.status).toBe(202);
      const detail = (await api.get(`/requests/${created.body.id}`)).body;
      expect({ locale: detail.locale, requestType: detail.requestType, requestTypeInferred: detail.requestTypeInferred }).toEqual({
        locale: 'de',
        requestType: requestType ?? 'access',
        requestTypeInferred: requestType === undefined,
      });
    });

    it.each([undefined, 'access'])('words in a language intake does not read give locale null and the language detected (requestType %s)', async (requestType) => {
      const created = await api.post('/requests', intake({ requestType }, { rawText: 'Dzień dobry, proszę o przesłanie kopii wszystkich moich danych osobowych.' }));
      expect(created.status).toBe(202);
      expect((await api.get(`/requests/${created.body.id}`)).body).toMatchObject({ locale: null, detectedLanguage: 'pl' });
    });

    it('is not an intake field: a client that sends `locale` gets a 400 naming it', async () => {
      const res = await api.post('/requests', intake({ locale: 'fr' }));
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['locale']);
    });
  });

  describe('triage: a request whose type intake leaves to an operator (issue 39)', () => {
    const QUESTION = 'Hello, I have a question about my order.';
    const operator = () => api.as(KEYS.operatorA.token);
    const detailOf = async (id: string) => (await api.get(`/requests/${id}`)).body;
    const triageIds = async (query = 'triage=true') => ((await api.get(`/requests?${query}&limit=200`)).body.items as Array<{ id: string }>).map((i) => i.id);
    /** A request of US-CA with no type and words no rule reads, received `receivedAt`. */
    async function triaged(receivedAt: string): Promise<Record<string, any>> {
      const created = await api.post('/requests/capture', intake({ jurisdiction: 'US-CA', requestType: undefined }, { rawText: QUESTION, receivedAt }));
      expect(created.status).toBe(202);
      return detailOf(created.body.id);
    }
    const dueAtOf = async (requestType: string, receivedAt: string) => (await api.post('/requests/capture', intake({ jurisdiction: 'US-CA', requestType }, { receivedAt }))).body.dueAt as string;

    it("is captured without a type, never as access, on the pack's default rule, and listed by the triage filter", async () => {
      const receivedAt = getSystem().clock.daysAgo(2);
      const detail = await triaged(receivedAt);
      expect(detail).toMatchObject({ requestType: null, requestTypeInferred: true, requestedRights: [], triage: { reason: 'no_rule_matched', suggestedType: null } });
      // CCPA's default rule (45 days) is the clock of a right to know, not the 15 business days of an opt-out.
      expect(detail.dueAt).toBe(await dueAtOf('access', receivedAt));
      expect(detail.dueAt).not.toBe(await dueAtOf('opt_out', receivedAt));
      expect(await triageIds()).toContain(detail.id);
      expect(await triageIds('triage=false')).not.toContain(detail.id);
      const item = ((await api.get('/requests?triage=true&limit=200')).body.items as Array<Record<string, unknown>>).find((i) => i.id === detail.id);
      expect(item).toMatchObject({ requestType: null, triage: true });
    });

    it('is worked on meanwhile (acknowledged), but not fulfilled until it has a type', async () => {
      const detail = await triaged(getSystem().clock.daysAgo(1));
      expect((await operator().post(`/requests/${detail.id}/acknowledgements`, {})).status).toBe(202);
      expect((await detailOf(detail.id)).status).toBe('in_progress');
      const fulfil = await operator().post(`/requests/${detail.id}/fulfilment`, {});
      expect(fulfil.status).toBe(409);
      expect(fulfil.body).toMatchObject({ code: 'SVC-BE-1112', name: 'REQUEST_IN_TRIAGE' });
      expect((await detailOf(detail.id)).status).toBe('in_progress');
    });

    it("is resolved by an operator's correction: recorded, the clock recomputed from the same receipt and explained", async () => {
      const receivedAt = getSystem().clock.daysAgo(3);
      const detail = await triaged(receivedAt);
      const res = await operator().post(`/requests/${detail.id}/corrections`, { requestType: 'opt_out', reason: 'The customer asks us to stop selling their data, on the phone.' });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id: detail.id, requestType: 'opt_out', previousDueAt: detail.dueAt, dueAt: await dueAtOf('opt_out', receivedAt) });
      const after = await detailOf(detail.id);
      expect(after).toMatchObject({ requestType: 'opt_out', triage: null, dueAt: res.body.dueAt });
      expect(await triageIds()).not.toContain(detail.id);
      const clock = (await api.get(`/requests/${detail.id}/clock/explain`)).body;
      expect(clock.corrections).toEqual([
        expect.objectContaining({ step: 'corrected', from: expect.objectContaining({ requestType: null }), to: expect.objectContaining({ requestType: 'opt_out' }) }),
      ]);
      const timeline = (await api.get(`/requests/${detail.id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
      expect(timeline.find((e) => e.eventType === 'request_corrected')?.payload).toMatchObject({ requestType: 'opt_out', previousRequestType: null });
    });

    it('is corrected once when two operators name its type at the same moment', async () => {
      const detail = await triaged(getSystem().clock.daysAgo(1));
      const body = { requestType: 'deletion', reason: 'The letter asks to close the account and delete it.' };
      const answers = await Promise.all([operator().post(`/requests/${detail.id}/corrections`, body), api.post(`/requests/${detail.id}/corrections`, body)]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 422]);
      expect(answers.find((a) => a.status === 422)?.body.code).toBe('SVC-BE-1411');
      expect((await api.get(`/requests/${detail.id}/clock/explain`)).body.corrections).toHaveLength(1);
    });

    it('is not seen nor corrected from another tenant or workspace, nor by a role that may not act; a bad filter is a 400', async () => {
      const detail = await triaged(getSystem().clock.daysAgo(1));
      const body = { requestType: 'access', reason: 'Read as access.' };
      expect((await api.as(KEYS.operatorB.token).post(`/requests/${detail.id}/corrections`, body)).status).toBe(404);
      expect((await api.as(KEYS.workspaceA.token).post(`/requests/${detail.id}/corrections`, body)).status).toBe(404);
      expect((await api.as(KEYS.auditorA.token).post(`/requests/${detail.id}/corrections`, body)).status).toBe(403);
      expect(((await api.as(KEYS.operatorB.token).get('/requests?triage=true&limit=200')).body.items as Array<{ id: string }>).map((i) => i.id)).not.toContain(detail.id);
      const bad = await api.get('/requests?triage=maybe');
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['triage']);
      expect(await detailOf(detail.id)).toMatchObject({ requestType: null, triage: { reason: 'no_rule_matched' } });
    });
  });

  describe('bad input changes nothing', () => {
    const queueTotal = async () => (await api.get('/requests?limit=1')).body.total as number;

    it.each([
      ['intakeSource.receivedAt missing', intake({}, { receivedAt: undefined }), ['intakeSource.receivedAt']],
      ['requestor without type', intake({ requestor: { name: 'Jane' } }), ['requestor.type']],
      ['authority without evidence and status', intake({ authority: { verifiedAt: '2026-03-03T10:00:00Z' } }), ['authority.evidenceArtifacts', 'authority.status']],
      ['unknown requestType', intake({ requestType: 'erase_everything' }), ['requestType']],
      ['an unknown field', intake({ priority: 'high' }), ['priority']],
      ['jurisdiction and intakeSource missing', { requestType: 'access' }, ['jurisdiction', 'intakeSource']],
      ['a date without a zone', intake({}, { receivedAt: '2026-03-03 10:00' }), ['intakeSource.receivedAt']],
    ])('%s → 400 naming each field', async (_case, body, fields) => {
      const before = await queueTotal();
      for (const path of ['/requests', '/requests/capture']) {
        const res = await api.post(path, body);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ code: 'SVC-BE-1102', name: 'REQUEST_VALIDATION_FAILED', status: 400 });
        expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
      }
      expect(await queueTotal()).toBe(before);
    });

    it.each([
      ['malformed', '{"jurisdiction": "DE",'],
      ['empty', ''],
      ['truncated', JSON.stringify(intake()).slice(0, 40)],
      ['not JSON at all', 'jurisdiction=DE'],
    ])('%s JSON body → 400 SVC-BE-1101 on every intake route', async (_case, raw) => {
      for (const path of ['/api/v1/requests', '/api/v1/requests/capture']) {
        const res = await api.call('POST', path, { raw, headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: 'SVC-BE-1101', name: 'REQUEST_BODY_INVALID_JSON' });
      }
    });

    it('an unsupported jurisdiction → 422 listing the supported ones', async () => {
      const res = await api.post('/requests', intake({ jurisdiction: 'XX' }));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'SVC-BE-1501', name: 'JURISDICTION_UNSUPPORTED' });
      expect(res.body.supported).toEqual(expect.arrayContaining(['EU', 'DE', 'FR', 'US-CA']));
    });

    it('a body that is not JSON → 415; a body over the limit → 413', async () => {
      const text = await api.call('POST', '/api/v1/requests', { raw: 'please delete my data', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect(text.body.code).toBe('SVC-BE-1104');
      const huge = await api.post('/requests', intake({}, { rawText: 'x'.repeat(200_000) }));
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe('SVC-BE-1103');
    });

    it('an unknown route → 404, a known path with another method → 405', async () => {
      const unknown = await api.get('/nothing-here');
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe('SVC-BE-1002');
      const method = await api.call('DELETE', '/api/v1/requests');
      expect(method.status).toBe(405);
      expect(method.headers.get('allow')).toBe('POST, GET');
    });
  });

  describe('authentication, roles and tenancy', () => {
    it('no token, a wrong token, or a wrong scheme → 401', async () => {
      const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer not-a-key-of-anyone-000000' }, { authorization: `Basic ${KEYS.adminA.token}` }];
      for (const headers of attempts) {
        const res = await api.call('GET', '/api/v1/requests', { token: null, headers });
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('SVC-BE-1301');
        expect(res.headers.get('www-authenticate')).toContain('Bearer');
        expect(JSON.stringify(res.body)).not.toContain(KEYS.adminA.token);
      }
    });

    it('a role that may not call the route → 403, and nothing is recorded', async () => {
      const auditor = api.as(KEYS.auditorA.token);
      const before = (await auditor.get('/requests?limit=1')).body.total;
      const res = await auditor.post('/requests', intake());
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('SVC-BE-1302');
      expect((await auditor.get('/requests?limit=1')).body.total).toBe(before);
      const intakeRole = api.as(KEYS.intakeA.token);
      const created = await intakeRole.post('/requests', intake());
      expect(created.status).toBe(202);
      expect((await intakeRole.get(`/requests/${created.body.id}`)).status).toBe(200);
    });

    it("another tenant's request is a 404, everywhere", async () => {
      const created = await api.post('/requests', intake());
      const other = api.as(KEYS.operatorB.token);
      for (const path of [`/requests/${created.body.id}`, `/requests/${created.body.id}/timeline`]) {
        const res = await other.get(path);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('SVC-BE-1003');
      }
      const queue = await other.get('/requests?limit=200');
      expect(queue.body.items.map((i: { id: string }) => i.id)).not.toContain(created.body.id);
      expect((await api.get('/requests/not-a-uuid')).status).toBe(404);
    });

    it('a caller confined to a workspace sees only its workspace', async () => {
      const north = api.as(KEYS.workspaceA.token);
      const mine = await north.post('/requests', intake());
      expect(mine.status).toBe(202);
      const tenantWide = await api.post('/requests', intake());
      expect((await north.get(`/requests/${mine.body.id}`)).body.workspaceId).toBe('north');
      expect((await north.get(`/requests/${tenantWide.body.id}`)).status).toBe(404);
      const queue = await north.get('/requests?limit=200');
      expect(queue.body.items.every((i: { workspaceId: string }) => i.workspaceId === 'north')).toBe(true);
      expect((await api.get(`/requests/${mine.body.id}`)).status).toBe(200);
    });
  });

  describe('Idempotency-Key', () => {
    const queueTotal = async () => (await api.get('/requests?limit=1')).body.total as number;

    it('the same key and body replay the first response; only one request exists', async () => {
      const key = `replay-${randomUUID()}`;
      const before = await queueTotal();
      const first = await api.post('/requests/capture', intake(), { headers: { 'idempotency-key': key } });
      const second = await api.post('/requests/capture', intake(), { headers: { 'idempotency-key': `"${key}"` } });
      expect(first.status).toBe(202);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.status).toBe(202);
      expect(second.body).toEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await queueTotal()).toBe(before + 1);
    });

    it('the same key with another body or route → 422', async () => {
      const key = `reuse-${randomUUID()}`;
      expect((await api.post('/requests', intake(), { headers: { 'idempotency-key': key } })).status).toBe(202);
      const otherBody = await api.post('/requests', intake({ requestType: 'deletion' }), { headers: { 'idempotency-key': key } });
      expect(otherBody.status).toBe(422);
      expect(otherBody.body.code).toBe('SVC-BE-1106');
      const otherRoute = await api.post('/requests/capture', intake(), { headers: { 'idempotency-key': key } });
      expect(otherRoute.status).toBe(422);
    });

    it('keys are scoped by caller: another caller may use the same key', async () => {
      const key = `scoped-${randomUUID()}`;
      const a = await api.post('/requests', intake(), { headers: { 'idempotency-key': key } });
      const b = await api.as(KEYS.intakeA.token).post('/requests', intake(), { headers: { 'idempotency-key': key } });
      expect(a.status).toBe(202);
      expect(b.status).toBe(202);
      expect(b.body.id).not.toBe(a.body.id);
    });

    it('the same key while the first call is still running → 409', async () => {
      const key = `running-${randomUUID()}`;
      // The first call is mid-flight: its claim is committed, its response not yet recorded.
      const db = getSystem().services.get('lifecycle-clock')!.app.get(DataSource);
      await db.query(
        `INSERT INTO lifecycle_clock.idempotency_keys (tenant_id, principal, key, fingerprint, state, locked_until, expires_at)
         VALUES ($1, $2, $3, $4, 'processing', now() + interval '1 minute', now() + interval '1 day')`,
        [KEYS.adminA.tenantId, keyId(KEYS.adminA.token), key, requestFingerprint('POST', '/requests', intake())],
      );
      const res = await api.post('/requests', intake(), { headers: { 'idempotency-key': key } });
      expect([res.status, res.body.code]).toEqual([409, 'SVC-BE-1107']);
    });

    it('parallel retries with one key create one request', async () => {
      const key = `parallel-${randomUUID()}`;
      const before = await queueTotal();
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.post('/requests', intake(), { headers: { 'idempotency-key': key } })));
      const accepted = answers.filter((a) => a.status === 202);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      expect(new Set(accepted.map((a) => a.body.id)).size).toBe(1);
      expect(answers.every((a) => a.status === 202 || (a.status === 409 && a.body.code === 'SVC-BE-1107'))).toBe(true);
      expect(await queueTotal()).toBe(before + 1);
    });

    it('an invalid key → 400 and nothing recorded', async () => {
      const before = await queueTotal();
      const res = await api.post('/requests', intake(), { headers: { 'idempotency-key': 'x'.repeat(300) } });
      expect([res.status, res.body.code]).toEqual([400, 'SVC-BE-1105']);
      expect(await queueTotal()).toBe(before);
    });
  });

  describe('queue', () => {
    let queue: ApiClient;
    const created: { id: string; receivedAt: string; jurisdiction: string; dueAt: string }[] = [];
    // The queue is read on Tue 16 Jun 2026 (the clock is put back afterwards), so every due date below is known.
    const TODAY = '2026-06-16T10:00:00Z';
    let before: Date;

    beforeAll(async () => {
      before = getSystem().clock.now();
      getSystem().clock.set(TODAY);
      queue = api.as(KEYS.queueC.token);
      // Receipts spread over the past: with one-month (DE) and 45-day (US-CA) periods, some are overdue, some due soon, some later.
      for (const [receivedAt, jurisdiction, dueAt] of [
        ['2026-04-16T09:00:00Z', 'DE', '2026-05-18T21:59:59.999Z'], // Sat 16 May -> Mon 18 May: overdue
        ['2026-05-20T09:00:00Z', 'DE', '2026-06-22T21:59:59.999Z'], // Sat 20 Jun -> Mon 22 Jun: within 7 days
        ['2026-05-26T17:00:00Z', 'US-CA', '2026-07-10T06:59:59.999Z'], // day 45 counting 26 May as day one: Thu 9 Jul
        ['2026-06-12T09:00:00Z', 'DE', '2026-07-13T21:59:59.999Z'], // Sun 12 Jul -> Mon 13 Jul
        ['2026-06-14T17:00:00Z', 'US-CA', '2026-07-29T06:59:59.999Z'], // Tue 28 Jul, end of day in Los Angeles
      ] as const) {
        const res = await queue.post('/requests/capture', intake({ jurisdiction }, { receivedAt }));
        expect(res.status).toBe(202);
        expect(res.body.dueAt).toBe(dueAt);
        created.push({ id: res.body.id, receivedAt, jurisdiction, dueAt });
      }
    });

    afterAll(() => getSystem().clock.set(before));

    it('echoes the defaults: newest first, 25 per page, with the total', async () => {
      const page = await queue.get('/requests');
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ limit: 25, offset: 0, sortBy: 'receivedAt', sortOrder: 'desc', total: 5, totalExact: true });
      const received = page.body.items.map((i: { receivedAt: string }) => i.receivedAt);
      expect(received).toEqual([...received].sort().reverse());
      expect(page.body.items[0]).not.toHaveProperty('requestor');
    });

    it('pages without overlap and sorts by every field', async () => {
      const ids: string[] = [];
      for (const offset of [0, 2, 4]) {
        const page = await queue.get(`/requests?limit=2&offset=${offset}&sortBy=dueAt&sortOrder=asc`);
        expect(page.body).toMatchObject({ limit: 2, offset, sortBy: 'dueAt', sortOrder: 'asc', total: 5 });
        ids.push(...page.body.items.map((i: { id: string }) => i.id));
      }
      expect(new Set(ids).size).toBe(5);
      const byDue = (await queue.get('/requests?sortBy=dueAt&sortOrder=asc')).body.items.map((i: { dueAt: string }) => i.dueAt);
      expect(byDue).toEqual([...byDue].sort());
      for (const sortBy of ['status', 'updatedAt']) {
        const res = await queue.get(`/requests?sortBy=${sortBy}&sortOrder=desc`);
        expect(res.status).toBe(200);
        expect(res.body.items).toHaveLength(5);
      }
    });

    it('filters by status (one or a list)', async () => {
      expect((await queue.get('/requests?status=received')).body).toMatchObject({ total: 5, totalExact: true, status: ['received'] });
      expect((await queue.get('/requests?status=fulfilled,closed')).body).toMatchObject({ total: 0, totalExact: true });
    });

    it('atRiskDays keeps open requests due within N days, overdue ones included', async () => {
      const page = await queue.get('/requests?atRiskDays=7&sortBy=dueAt&sortOrder=asc');
      expect(page.body).toMatchObject({ atRiskDays: 7, total: 2, totalExact: true });
      // On Tue 16 Jun at 10:00 UTC: the request due 18 May is overdue and the one due at the end of Mon 22 Jun is within
      // 7 days (before 23 Jun 10:00); the rest are due in July.
      expect(page.body.items.map((i: { id: string }) => i.id)).toEqual([created[0].id, created[1].id]);
      const all = (await queue.get('/requests')).body.items as { id: string; dueAt: string; overdue: boolean }[];
      expect(all.filter((i) => i.overdue).map((i) => i.id)).toEqual([created[0].id]);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['sortBy=name', 'sortBy'],
      ['sortOrder=up', 'sortOrder'],
      ['status=open', 'status'],
      ['atRiskDays=soon', 'atRiskDays'],
      ['color=blue', 'color'],
    ])('%s → 400 naming %s', async (query, field) => {
      const res = await queue.get(`/requests?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      expect(res.body.instance).toBe(`/api/v1/requests?${query}`);
    });

    it('keeps the total exact per status and workspace as requests come in and move, apart from other tenants', async () => {
      const otherTenant = api.as(KEYS.operatorB.token);
      const otherTotal = (await otherTenant.get('/requests?limit=1')).body.total as number;
      const north = api.as(KEYS.queueCNorth.token);
      const ids: string[] = [];
      // Received yesterday: due in July, not at risk.
      for (let i = 0; i < 2; i++) {
        const res = await north.post('/requests/capture', intake({}, { receivedAt: '2026-06-15T09:00:00Z' }));
        expect(res.status).toBe(202);
        ids.push(res.body.id);
      }
      expect((await north.post(`/requests/${ids[0]}/acknowledgements`, {})).status).toBe(202);
      expect((await queue.post(`/requests/${created[0].id}/closures`, {})).status).toBe(202);
      const totals = async (client: ApiClient, query = '') => {
        const { total, totalExact } = (await client.get(`/requests?limit=1${query}`)).body;
        return { total, totalExact };
      };
      expect(await totals(queue)).toEqual({ total: 7, totalExact: true });
      expect(await totals(north)).toEqual({ total: 2, totalExact: true });
      expect(await totals(queue, '&status=received')).toEqual({ total: 5, totalExact: true });
      expect(await totals(queue, '&status=in_progress,closed')).toEqual({ total: 2, totalExact: true });
      expect(await totals(north, '&status=in_progress')).toEqual({ total: 1, totalExact: true });
      expect(await totals(north, '&status=closed')).toEqual({ total: 0, totalExact: true });
      // The overdue request is closed now: only the one due within 7 days is left at risk.
      expect(await totals(queue, '&atRiskDays=7')).toEqual({ total: 1, totalExact: true });
      expect(await totals(north, '&atRiskDays=7')).toEqual({ total: 0, totalExact: true });
      expect(await totals(otherTenant)).toEqual({ total: otherTotal, totalExact: true });
    });
  });

  describe('OpenAPI', () => {
    it('serves the OpenAPI 3.1 document with every route, and the docs page', async () => {
      const res = await api.call('GET', '/api/v1/openapi.json', { token: null });
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
      for (const route of ROUTES) {
        expect(res.body.paths[route.path.replace(/:(\w+)/g, '{$1}')]).toHaveProperty(route.method.toLowerCase());
      }
      expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      const docs = await fetch(`${getSystem().gatewayUrl}/api/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('swagger-ui');
    });
  });
}
