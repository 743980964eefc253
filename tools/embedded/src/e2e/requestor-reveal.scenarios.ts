import { apiKeyListSchema } from '@dsar/platform/auth';
import { uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { ApiClient, type ApiResponse } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { TEST_GATEWAY_SETTINGS, type TestSystem } from './systems';

type Json = Record<string, any>;

/** A connector of tenant A: it works on tasks and may not read requests (the role without `requests:read`). */
const CONNECTOR_A = { token: 'tenant-a-connector-key-0000000000', tenantId: 'tenant-a', roles: ['connector'] };

/** The settings of the scenarios' systems: the test keys and the connector; no rate limit (bad bodies come in a burst). */
export const REVEAL_SETTINGS = {
  DSAR_API_KEYS: [...TEST_GATEWAY_SETTINGS.DSAR_API_KEYS, ...apiKeyListSchema.parse([CONNECTOR_A])],
  RATE_LIMIT_PER_MINUTE: 0,
};

const REVEALED_TYPE = 'dsar.request.requestor_revealed.v1';
const HASHED = /^hmac-sha256:[0-9a-f]{64}$/;

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({ status, type: expect.stringContaining('application/problem+json'), code });
}

/** An agent's request of its own: every kind of identity, each repeated in the letter, and account ids at intake. */
function agentRequest() {
  const tag = uniqueSuffix();
  const person = {
    name: `Rosa Quintero ${tag}`,
    email: `rosa.quintero.${tag}@example.net`,
    phone: '+34 612 345 678',
    contact: `rosa.q.${tag}@mail.example.com`,
    account: `cust-${tag}-4471`,
    loyalty: `loyalty-${tag}`,
  };
  const body = {
    jurisdiction: 'ES',
    requestType: 'access',
    intakeSource: {
      channel: 'email',
      rawText: `Hello, I am ${person.name} and I write for my father (customer ${person.account}). Write to ${person.email} or call ${person.phone}.`,
      receivedAt: '2026-03-03T10:00:00Z',
      contact: person.contact,
      sourceEvidence: [{ type: 'account_id', reference: person.account }],
    },
    requestor: { type: 'authorized_agent', name: person.name, email: person.email, phone: person.phone, relation: 'daughter' },
  };
  return { person, body, clear: [person.name, person.email, person.phone, person.contact, person.account, person.loyalty] };
}

/**
 * Issue [console], item 4, end to end through the gateway: the request detail with the requestor's identities masked
 * (`requestor=masked`) and, by default, in clear as before; a reveal that answers them in clear and records
 * `dsar.request.requestor_revealed.v1` on the timeline and the audit chain (which verifies), once per call; and
 * reveals refused with nothing recorded: bad bodies (400), another tenant, another workspace or no such request
 * (404), a role without `requests:read` (403), no token (401).
 */
export function requestorRevealScenarios(getSystem: () => TestSystem): void {
  let admin: ApiClient;
  let operator: ApiClient;
  let made: ReturnType<typeof agentRequest>;
  let id: string;

  beforeAll(async () => {
    admin = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    operator = admin.as(KEYS.operatorA.token);
    made = agentRequest();
    const created = await admin.post('/requests', made.body);
    expect(created.status).toBe(202);
    id = created.body.id as string;
    // Account ids given with the authority are identities of the request too.
    const evidence = [
      { type: 'account_id', reference: made.person.loyalty },
      { type: 'power_of_attorney', reference: 'docs://poa/reveal-scenario' },
    ];
    expect((await operator.post(`/requests/${id}/authority/submit`, { evidenceArtifacts: evidence, status: 'submitted' })).status).toBe(202);
  });

  const detailOf = async (query = '', client: ApiClient = operator): Promise<Json> => {
    const res = await client.get(`/requests/${id}${query}`);
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 200, code: undefined });
    return res.body;
  };

  /** The reveal events of the request, as its timeline lists them (the timeline waits for the request's newest event). */
  const revealsOnTimeline = async (): Promise<Json[]> => {
    const res = await admin.get(`/requests/${id}/timeline`);
    expect(res.status).toBe(200);
    return (res.body.events as Json[]).filter((e) => e.eventType === 'request_requestor_revealed');
  };

  const reveal = (body: unknown, client: ApiClient = operator, headers: Record<string, string> = {}) => client.post(`/requests/${id}/requestor/reveal`, body, { headers });

  describe('the masked detail', () => {
    it('masks every identity of the requestor: the requestor block, the contact, the account ids and where the letter repeats them', async () => {
      const masked = await detailOf('?requestor=masked');
      const text = JSON.stringify(masked);
      for (const clear of made.clear) expect({ clear, shown: text.includes(clear) }).toEqual({ clear, shown: false });
      const tag = made.person.name.split(' ').at(-1);
      expect(masked.requestor).toEqual({ type: 'authorized_agent', name: `R*** Q*** ${tag?.[0]}***`, email: 'r***@example.net', phone: '+34 6** *** 678', relation: 'daughter' });
      expect(masked.intakeSource.contact).toBe('r***@mail.example.com');
      expect(masked.intakeSource.sourceEvidence).toEqual([{ type: 'account_id', reference: 'cu***71' }]);
      expect(masked.authority.evidenceArtifacts).toEqual([
        { type: 'account_id', reference: `lo***${made.person.loyalty.slice(-2)}` },
        { type: 'power_of_attorney', reference: 'docs://poa/reveal-scenario' },
      ]);
      expect(masked.intakeSource.rawText).toContain(`I am ${masked.requestor.name} and I write for my father (customer cu***71). Write to r***@example.net or call +34 6** *** 678.`);
    });

    it('is the only change: by default, and with `requestor=clear`, the detail carries the identities as recorded', async () => {
      const [masked, byDefault, clear] = [await detailOf('?requestor=masked'), await detailOf(), await detailOf('?requestor=clear')];
      expect(clear).toEqual(byDefault);
      expect(byDefault.requestor).toEqual(made.body.requestor);
      expect(byDefault.intakeSource.rawText).toBe(made.body.intakeSource.rawText);
      expect({ ...masked, requestor: byDefault.requestor, intakeSource: byDefault.intakeSource, authority: byDefault.authority }).toEqual(byDefault);
      // By the reference too.
      const reference = `DSAR-${id.slice(0, 8).toUpperCase()}`;
      expect((await operator.get(`/requests/${reference}?requestor=masked`)).body.requestor.email).toBe('r***@example.net');
    });

    it('refuses another value of `requestor` by name (400)', async () => {
      const res = await operator.get(`/requests/${id}?requestor=hidden`);
      expectProblem(res, 400, 'SVC-BE-1102');
      expect(res.body.errors).toEqual([{ field: 'requestor', message: expect.stringContaining('masked') }]);
    });
  });

  describe('a reveal', () => {
    let answer: ApiResponse;
    let before: Json;

    beforeAll(async () => {
      before = await detailOf();
      answer = await reveal({ reason: '  Calling the agent back about the power of attorney.  ' });
    });

    it('answers the identities in clear, and which of them it showed', () => {
      expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 200, code: undefined });
      expect(answer.body).toEqual({
        requestId: id,
        requestor: made.body.requestor,
        contact: made.person.contact,
        accountIds: [made.person.account, made.person.loyalty],
        fields: ['name', 'email', 'phone', 'contact', 'account_id'],
        revealedAt: expect.any(String),
        eventId: expect.any(String),
      });
    });

    it('is on the timeline: who and which identities, the reason as a salted hash, no identity', async () => {
      const [event] = await revealsOnTimeline();
      expect(event).toMatchObject({
        id: answer.body.eventId,
        payload: {
          requestId: id,
          actor: expect.stringMatching(/^key:/),
          fields: ['name', 'email', 'phone', 'contact', 'account_id'],
          reason: expect.stringMatching(HASHED),
          revealedAt: answer.body.revealedAt,
        },
      });
      const text = JSON.stringify(event);
      for (const clear of [...made.clear, 'power of attorney']) expect({ clear, shown: text.includes(clear) }).toEqual({ clear, shown: false });
    });

    it('is on the audit chain, which verifies with it at its head', async () => {
      const exported = await waitFor('the reveal on the audit chain', async () => {
        const res = await admin.get(`/requests/${id}/audit/export`);
        return res.status === 202 && (res.body.events as Json[]).some((e) => e.eventId === answer.body.eventId) ? res : undefined;
      });
      const entry = (exported.body.events as Json[]).find((e) => e.eventId === answer.body.eventId)!;
      expect(entry).toMatchObject({ eventType: REVEALED_TYPE, actor: expect.stringMatching(/^key:/), source: '/dsar/lifecycle-clock', payload: { reason: expect.stringMatching(HASHED) } });
      const { rootHash, headSequence } = exported.body;
      const verified = await admin.as(KEYS.auditorA.token).post(`/requests/${id}/audit/verify`, { hash: rootHash, sequence: headSequence });
      expect(verified.body).toMatchObject({ verified: true, status: 'verified', mismatches: [] });
    });

    it('changes nothing of the request: not its status, nor when it was last changed', async () => {
      expect(await detailOf()).toMatchObject({ status: before.status, statusChangedAt: before.statusChangedAt, updatedAt: before.updatedAt });
    });

    it('takes a reason of exactly 500 characters, the bound', async () => {
      const res = await reveal({ reason: 'b'.repeat(500) });
      expect({ status: res.status, fields: res.body.fields }).toEqual({ status: 200, fields: answer.body.fields });
    });

    it('is recorded each time, also when the same Idempotency-Key is sent again; an auditor may reveal too', async () => {
      const before = (await revealsOnTimeline()).length;
      const key = { 'idempotency-key': `reveal-${uniqueSuffix()}` };
      const first = await reveal({ reason: 'Checking the spelling of the name.' }, operator, key);
      const again = await reveal({ reason: 'Checking the spelling of the name.' }, operator, key);
      const audited = await reveal({ reason: 'Sampling requests for the quarterly review.' }, admin.as(KEYS.auditorA.token));
      for (const res of [first, again, audited]) expect({ status: res.status, replayed: res.headers.get('idempotent-replayed') }).toEqual({ status: 200, replayed: null });
      expect(new Set([first.body.eventId, again.body.eventId, audited.body.eventId]).size).toBe(3);
      const after = await revealsOnTimeline();
      expect(after.length).toBe(before + 3);
      expect(after.at(-1)?.payload.actor).not.toBe(after.at(-2)?.payload.actor);
    });
  });

  describe('refused reveals record nothing', () => {
    let recorded: number;
    beforeAll(async () => {
      recorded = (await revealsOnTimeline()).length;
    });

    it.each([
      ['no reason', {}],
      ['an empty reason', { reason: '' }],
      ['a blank reason', { reason: '   \n ' }],
      ['a reason of 501 characters', { reason: 'r'.repeat(501) }],
      ['a number', { reason: 500 }],
      ['a list', { reason: ['Calling back.'] }],
      ['null', { reason: null }],
    ])('%s is 400 naming `reason`', async (_what, body) => {
      const res = await reveal(body);
      expectProblem(res, 400, 'SVC-BE-1102');
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'reason' })]);
    });

    it('a field of another name, a body that is not an object, or no JSON at all is 400', async () => {
      const extra = await reveal({ reason: 'Calling back.', fields: ['email'] });
      expectProblem(extra, 400, 'SVC-BE-1102');
      expect(extra.body.errors).toEqual([{ field: 'fields', message: 'is not a known field' }]);
      expectProblem(await reveal(['Calling back.']), 400, 'SVC-BE-1102');
      expectProblem(await operator.call('POST', `/api/v1/requests/${id}/requestor/reveal`, { raw: '{"reason":', headers: { 'content-type': 'application/json' } }), 400, 'SVC-BE-1101');
    });

    it("another tenant's caller gets 404, for the detail as for the reveal", async () => {
      const other = operator.as(KEYS.operatorB.token);
      expectProblem(await other.get(`/requests/${id}?requestor=masked`), 404, 'SVC-BE-1003');
      expectProblem(await reveal({ reason: 'Curious.' }, other), 404, 'SVC-BE-1003');
    });

    it('a caller confined to another workspace gets 404; a request of its own workspace it may reveal', async () => {
      const south = await admin.as(KEYS.southIntakeA.token).post('/requests', { ...agentRequest().body, jurisdiction: 'DE' });
      expect(south.status).toBe(202);
      const north = operator.as(KEYS.workspaceA.token);
      expectProblem(await north.post(`/requests/${south.body.id}/requestor/reveal`, { reason: 'Not my workspace.' }), 404, 'SVC-BE-1003');
      expectProblem(await reveal({ reason: 'Not my workspace either.' }, north), 404, 'SVC-BE-1003');
      const southReveal = await admin.as(KEYS.southIntakeA.token).post(`/requests/${south.body.id}/requestor/reveal`, { reason: 'Our own request.' });
      expect(southReveal.status).toBe(200);
    });

    it('a role without `requests:read` gets 403, and a call without a token 401', async () => {
      expectProblem(await reveal({ reason: 'A connector asks.' }, operator.as(CONNECTOR_A.token)), 403, 'SVC-BE-1302');
      expectProblem(await operator.call('POST', `/api/v1/requests/${id}/requestor/reveal`, { token: null, json: { reason: 'Nobody asks.' } }), 401, 'SVC-BE-1301');
    });

    it('no such request, or an id of another form, is 404', async () => {
      expectProblem(await operator.post('/requests/5a1f0c2e-9d3b-4e6a-8f71-2c4b6d8e0a13/requestor/reveal', { reason: 'Which one?' }), 404, 'SVC-BE-1003');
      expectProblem(await operator.post('/requests/DSAR-1234ABCD/requestor/reveal', { reason: 'By reference?' }), 404, 'SVC-BE-1003');
    });

    it('left no reveal on the request of these scenarios', async () => {
      expect((await revealsOnTimeline()).length).toBe(recorded);
    });
  });
}
