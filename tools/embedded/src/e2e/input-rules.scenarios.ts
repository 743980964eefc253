import { type PolicyPack, policyPackVersion } from '@dsar/contracts';
import type { RunningSystem } from '../system';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

/** Fixed dates: the scenarios never depend on the day they run. */
const RECEIVED_AT = '2026-03-02T09:00:00Z';
const NUL = '\u0000';

type Json = Record<string, unknown>;

/** A clear validation answer: problem+json 400 naming `field`, with a message that says what to send. */
function expectFieldProblem(res: ApiResponse, field: string, message?: string | RegExp): void {
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({ status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
  expect(res.body).toMatchObject({ code: 'SVC-BE-1102', name: 'REQUEST_VALIDATION_FAILED' });
  const errors = res.body.errors as { field: string; message: string }[];
  const hit = errors.find((e) => e.field === field);
  expect({ errors, found: hit !== undefined }).toMatchObject({ found: true });
  if (message !== undefined) expect(hit!.message).toMatch(message);
}

/** Whether the published JSON Schema (the served OpenAPI document) lets a string through: its patterns and lengths. */
function publishedAccepts(schema: Json, value: string): boolean {
  const patterns = [schema.pattern, ...((schema.allOf as Json[] | undefined) ?? []).map((s) => s.pattern)].filter((p): p is string => typeof p === 'string');
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  const length = [...value].length;
  return patterns.every((p) => new RegExp(p, 'u').test(value)) && length >= Number(schema.minLength ?? 0) && length <= Number(schema.maxLength ?? Infinity);
}

/**
 * The input rules of docs/security.md#input-rules end to end through the
 * gateway: one timestamp range, one text rule, a nesting limit, optional
 * refusal fields, a requestor that is always there, and an OpenAPI document
 * that promises what the server checks. Every refused input is a problem+json
 * 400 naming the field, and nothing changes.
 */
export function inputRulesScenarios(getSystem: () => RunningSystem): void {
  let api: ApiClient;
  let openapi: { components: { schemas: Record<string, Json> }; paths: Record<string, Record<string, { parameters?: Json[] }>> };
  beforeAll(async () => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    openapi = (await api.call('GET', '/api/v1/openapi.json', { token: null })).body as typeof openapi;
  });

  const queueTotal = async () => {
    const res = await api.get('/requests?limit=1');
    expect(res.status).toBe(200);
    return res.body.total as number;
  };

  async function capture(overrides: Json = {}): Promise<string> {
    const created = await api.post('/requests/capture', intake(overrides, { receivedAt: RECEIVED_AT }));
    expect(created.status).toBe(202);
    return created.body.id as string;
  }

  /** Posts a bad intake and checks that it is a 400 on `field` and that the queue did not grow. */
  async function refusedIntake(body: Json, field: string, message?: string | RegExp): Promise<void> {
    const before = await queueTotal();
    for (const path of ['/requests', '/requests/capture']) expectFieldProblem(await api.post(path, body), field, message);
    expect(await queueTotal()).toBe(before);
  }

  describe('timestamps: years 1970 to 2999, read as the exact instant', () => {
    it.each([
      ['a year before 100 (once a 202 that broke the queue)', '0029-12-09T04:54:38Z'],
      ['year 1', '0001-01-01T00:00:00Z'],
      ['a year before 1970', '1969-12-31T23:59:59Z'],
      ['a year after 2999', '3000-01-01T00:00:00Z'],
      ['an expanded year', '+002026-03-02T09:00:00Z'],
      ['29 February of a common year', '2026-02-29T09:00:00Z'],
    ])('intakeSource.receivedAt with %s → 400, the queue unchanged and still readable', async (_case, receivedAt) => {
      await refusedIntake(intake({}, { receivedAt }), 'intakeSource.receivedAt', /year from 1970 to 2999/);
      const queue = await api.get('/requests');
      expect(queue.status).toBe(200);
    });

    it('the other timestamp fields follow the same rule: receivedAt, authority.verifiedAt', async () => {
      await refusedIntake(intake({ receivedAt: '0099-01-01T00:00:00Z' }), 'receivedAt', /1970 to 2999/);
      await refusedIntake(intake({ authority: { evidenceArtifacts: [], status: 'verified', verifiedAt: '1900-01-01T00:00:00Z' } }), 'authority.verifiedAt', /1970 to 2999/);
    });

    it('workflow timestamps too: a clarification answer dated in year 29 is a 400 and the request stays where it was', async () => {
      const id = await capture();
      expect((await api.post(`/requests/${id}/clarifications/request`, { message: 'Which account?' })).status).toBe(202);
      expectFieldProblem(await api.post(`/requests/${id}/clarifications/receive`, { receivedAt: '0029-03-03T09:00:00Z' }), 'receivedAt', /1970 to 2999/);
      expect((await api.get(`/requests/${id}`)).body.status).toBe('clarification_pending');
      expect((await api.get(`/requests/${id}/clock/explain`)).status).toBe(200);
    });

    it('the range ends are accepted and kept as the exact instants', async () => {
      const id = await capture();
      expect((await api.get(`/requests/${id}`)).body.intakeSource.receivedAt).toBe(RECEIVED_AT);
      const early = await api.post('/requests', intake({}, { receivedAt: '1970-01-01T00:00:00Z' }));
      // Accepted by the contract; the pack then says whether a request that old can still be taken in.
      expect(early.status).not.toBe(500);
      if (early.status === 202) {
        const detail = await api.get(`/requests/${early.body.id}`);
        expect(detail.status).toBe(200);
        expect(detail.body.intakeSource.receivedAt).toBe('1970-01-01T00:00:00Z');
        expect((await api.get('/requests')).status).toBe(200);
      }
    });
  });

  describe('text: no NUL or other control characters, not blank', () => {
    it.each([
      ['rawText with NUL', intake({}, { rawText: `Please delete${NUL} my data`, receivedAt: RECEIVED_AT }), 'intakeSource.rawText'],
      ['rawText with ESC', intake({}, { rawText: 'Please \u001b[31mdelete my data', receivedAt: RECEIVED_AT }), 'intakeSource.rawText'],
      ['a requestor name with NUL', intake({ requestor: { type: 'subject', name: `Jane${NUL}Doe` } }, { receivedAt: RECEIVED_AT }), 'requestor.name'],
      ['a contact with NUL', intake({}, { contact: `jane${NUL}@example.org`, receivedAt: RECEIVED_AT }), 'intakeSource.contact'],
      ['evidence with NUL', intake({}, { sourceEvidence: [{ type: 'email_message', reference: `mail://1${NUL}` }], receivedAt: RECEIVED_AT }), 'intakeSource.sourceEvidence[0].reference'],
    ])('intake with %s → 400 naming the field; nothing recorded', async (_case, body, field) => {
      await refusedIntake(body, field, /control characters/);
    });

    it('an email with NUL → 400 saying what an address looks like', async () => {
      await refusedIntake(intake({ requestor: { type: 'subject', email: `jane${NUL}@example.org` } }, { receivedAt: RECEIVED_AT }), 'requestor.email', /email address, e\.g\./);
    });

    it('whitespace-only text → 400 (the published pattern says so too)', async () => {
      await refusedIntake(intake({}, { rawText: ' \t\n\u00a0', receivedAt: RECEIVED_AT }), 'intakeSource.rawText', /other than white space/);
      const rawText = (openapi.components.schemas.IntakeSource.properties as Record<string, Json>).rawText;
      expect(publishedAccepts(rawText, ' \t\n\u00a0')).toBe(false);
      expect(publishedAccepts(rawText, `a${NUL}b`)).toBe(false);
      expect(publishedAccepts(rawText, 'Line one\r\n\tLine two')).toBe(true);
    });

    it('tab, line feed and carriage return are text', async () => {
      const created = await api.post('/requests', intake({}, { rawText: 'Line one\r\n\tLine two: delete my data', receivedAt: RECEIVED_AT }));
      expect(created.status).toBe(202);
      expect((await api.get(`/requests/${created.body.id}`)).body.intakeSource.rawText).toBe('Line one\r\n\tLine two: delete my data');
    });

    it('acknowledgement, refusal and PUT /requestor with NUL → 400; status and requestor unchanged', async () => {
      const id = await capture();
      const before = (await api.get(`/requests/${id}`)).body;
      expectFieldProblem(await api.post(`/requests/${id}/acknowledgements`, { message: `Got it${NUL}` }), 'message', /control characters/);
      expectFieldProblem(await api.post(`/requests/${id}/refusals`, { reason: 'excessive', message: `No${NUL}` }), 'message', /control characters/);
      expectFieldProblem(await api.post(`/requests/${id}/refusals`, { reason: 'excessive', rationale: `x${NUL}` }), 'rationale', /control characters/);
      expectFieldProblem(await api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { type: 'authorized_agent', name: `Agent${NUL}` } }), 'name', /control characters/);
      expectFieldProblem(await api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { type: 'authorized_agent', relation: '   ' } }), 'relation', /white space/);
      const after = (await api.get(`/requests/${id}`)).body;
      expect({ status: after.status, requestor: after.requestor, acknowledgedAt: after.acknowledgedAt }).toEqual({
        status: before.status,
        requestor: before.requestor,
        acknowledgedAt: before.acknowledgedAt,
      });
    });
  });

  describe('no NUL in any string: a custom policy pack, stored whole', () => {
    /** A registration of the UK pack as a custom pack of tenant A, with `change` applied to the pack. */
    function registration(change: (pack: PolicyPack) => void) {
      const pack = structuredClone(policyPackVersion('uk-gdpr', '1.0.0') as PolicyPack);
      pack.packId = 'nul-probe';
      pack.version = '1.0.0';
      change(pack);
      return { jurisdiction: 'GB', name: pack.packId, version: pack.version, pack, metadata: { changelog: 'First release.', compatibilityNotes: 'None.', releaseType: 'major' } };
    }

    it.each([
      ['its name', (p: PolicyPack) => (p.name = `Service${NUL} standard`), 'pack.name'],
      ['a note', (p: PolicyPack) => (p.notes = ['A note.', `note${NUL}`]), 'pack.notes[1]'],
      ['a citation', (p: PolicyPack) => (p.citations[0].title = `Art${NUL}`), 'pack.citations[0].title'],
      ['a citation url', (p: PolicyPack) => (p.citations[0].url = `https://example.org/${NUL}`), 'pack.citations[0].url'],
      ["a jurisdiction's time zone", (p: PolicyPack) => (p.jurisdictions[0].timeZone = `Europe/London${NUL}`), 'pack.jurisdictions[0].timeZone'],
    ])('NUL in %s → 400 naming the field, not a database error', async (_case, change, field) => {
      expectFieldProblem(await api.post('/policies/custom/register', registration(change)), field, /control characters/);
    });

    it('nothing of them was registered: the same version without NUL is taken', async () => {
      expect(
        (
          await api.post(
            '/policies/custom/register',
            registration(() => undefined),
          )
        ).status,
      ).toBe(202);
    });
  });

  describe('refusals: every field optional', () => {
    it('{} refuses with reason `other`; a refusal without a body too', async () => {
      const id = await capture();
      const res = await api.post(`/requests/${id}/refusals`, {});
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ id, status: 'refused' });
      expect((await api.get(`/requests/${id}`)).body).toMatchObject({ status: 'refused', statusReason: 'other' });
      const bodiless = await capture();
      expect((await api.call('POST', `/api/v1/requests/${bodiless}/refusals`)).status).toBe(202);
      expect((await api.get(`/requests/${bodiless}`)).body).toMatchObject({ status: 'refused', statusReason: 'other' });
    });

    it('publishes the fields as optional, with the default reason', () => {
      const refusal = openapi.components.schemas.RefusalCommand as { required?: string[]; properties: Record<string, Json> };
      expect(refusal.required ?? []).toEqual([]);
      expect(refusal.properties.reason.default).toBe('other');
    });
  });

  describe('the requestor is always there', () => {
    it('a request taken in without a requestor shows {type: "subject"}', async () => {
      const body = intake({}, { receivedAt: RECEIVED_AT });
      delete body.requestor;
      const created = await api.post('/requests', body);
      expect(created.status).toBe(202);
      const detail = await api.get(`/requests/${created.body.id}`);
      expect(detail.body.requestor).toEqual({ type: 'subject' });
      expect((openapi.components.schemas.RequestDetail as { required: string[] }).required).toContain('requestor');
    });
  });

  describe('the OpenAPI document promises what the server checks', () => {
    const param = (path: string, method: string, name: string) => (openapi.paths[path][method].parameters ?? []).find((p) => p.name === name) as Json & { schema: Json };

    it.each([['0'], ['201'], ['-1'], ['1e2'], ['007']])('limit=%s: refused by the published pattern and by the server alike', async (limit) => {
      expect(publishedAccepts(param('/requests', 'get', 'limit').schema, limit)).toBe(false);
      const res = await api.get(`/requests?limit=${encodeURIComponent(limit)}`);
      expectFieldProblem(res, 'limit', /whole number from 1 to 200/);
    });

    it('limit=1 and limit=200 are accepted by both', async () => {
      for (const limit of ['1', '200']) {
        expect(publishedAccepts(param('/requests', 'get', 'limit').schema, limit)).toBe(true);
        expect((await api.get(`/requests?limit=${limit}`)).status).toBe(200);
      }
    });

    it('an unknown status filter is refused by both', async () => {
      expect(publishedAccepts(param('/requests', 'get', 'status').schema, 'open')).toBe(false);
      expect(publishedAccepts(param('/requests', 'get', 'status').schema, 'received,refused')).toBe(true);
      expectFieldProblem(await api.get('/requests?status=open'), 'status', /comma-separated list of/);
    });

    it('an Idempotency-Key with a space: refused by the published pattern and by the gateway, nothing recorded', async () => {
      const header = param('/requests', 'post', 'Idempotency-Key');
      expect(publishedAccepts(header.schema, 'a b')).toBe(false);
      expect(publishedAccepts(header.schema, 'order-42')).toBe(true);
      expect(publishedAccepts(header.schema, '"order-42"')).toBe(true);
      const before = await queueTotal();
      const res = await api.post('/requests', intake({}, { receivedAt: RECEIVED_AT }), { headers: { 'idempotency-key': 'a b' } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'SVC-BE-1105', name: 'IDEMPOTENCY_KEY_INVALID' });
      expect(await queueTotal()).toBe(before);
    });

    it('the jurisdictions are published; every published one is taken, another is a 422 naming the supported ones', async () => {
      const published = ((openapi.components.schemas.IntakePayload as { properties: Record<string, Json> }).properties.jurisdiction.enum as string[]) ?? [];
      expect(published).toEqual(expect.arrayContaining(['DE', 'de', 'EU', 'US-CA', 'us-ca']));
      expect(published).not.toContain('XX');
      for (const code of ['fr', 'US-VA']) expect((await api.post('/requests', intake({ jurisdiction: code }, { receivedAt: RECEIVED_AT }))).status).toBe(202);
      const before = await queueTotal();
      const unknown = await api.post('/requests', intake({ jurisdiction: 'XX' }, { receivedAt: RECEIVED_AT }));
      expect(unknown.status).toBe(422);
      expect(unknown.body.supported).toEqual(expect.arrayContaining(published.filter((c) => c === c.toUpperCase())));
      expect(await queueTotal()).toBe(before);
    });

    it('both extension amounts: the schema says not both, the server refuses it, the deadline stays', async () => {
      const extension = openapi.components.schemas.ExtensionCommand as Json;
      expect(extension.not).toEqual({ required: ['additionalDays', 'additionalMonths'] });
      const id = await capture();
      const dueAt = (await api.get(`/requests/${id}`)).body.dueAt;
      expectFieldProblem(await api.post(`/requests/${id}/extensions`, { additionalDays: 10, additionalMonths: 1 }), 'additionalMonths', /not both/);
      expect((await api.get(`/requests/${id}`)).body.dueAt).toBe(dueAt);
    });
  });

  describe('messages that tell the caller what to send', () => {
    it('an audit hash that is not one says what a hash looks like', async () => {
      const id = await capture();
      expectFieldProblem(await api.post(`/requests/${id}/audit/verify`, { hash: 'abc', sequence: 1 }), 'hash', 'must be sha256: followed by 64 lowercase hex digits');
    });

    it('a body nested deeper than 32 levels → 400 saying so (with and without an Idempotency-Key), nothing recorded', async () => {
      const before = await queueTotal();
      for (const raw of ['['.repeat(5000) + ']'.repeat(5000), JSON.stringify({ ...intake(), requestor: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) })]) {
        const plain: Record<string, string> = { 'content-type': 'application/json' };
        for (const headers of [plain, { ...plain, 'idempotency-key': `deep-${raw.length}` }]) {
          const res = await api.call('POST', '/api/v1/requests', { raw, headers });
          expectFieldProblem(res, '(body)', /JSON nested deeper than 32 levels/);
        }
      }
      expect(await queueTotal()).toBe(before);
    });

    it('a body of the wrong type is "must be an object", a field of the wrong type "must be a string": not "is required"', async () => {
      expectFieldProblem(await api.call('POST', '/api/v1/requests', { raw: '[]', headers: { 'content-type': 'application/json' } }), '(body)', 'must be an object');
      expectFieldProblem(await api.post('/requests', intake({ requestor: { type: 'subject', name: 5 } }, { receivedAt: RECEIVED_AT })), 'requestor.name', 'must be a string');
    });
  });
}
