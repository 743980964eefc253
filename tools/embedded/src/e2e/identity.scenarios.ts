import { spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { apiKeyListSchema } from '@dsar/platform/auth';
import { ManualClock } from '@dsar/platform/clock';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RetentionSweeper } from '@dsar/platform/retention';
import { testHostConfig, uniqueSuffix, waitFor } from '@dsar/platform/testing';
import { startSystem } from '../system';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { TEST_GATEWAY_SETTINGS, type TestSystem, testNow } from './systems';

type Json = Record<string, any>;

const DAY = 86_400_000;
const ROOT = path.resolve(__dirname, '../../../..');
const OPERATOR_ALERTS = 'privacy-desk@tenant-a.example';

/** The admin of a tenant of the purge scenario's own: every one of its requests is purged, so that none of its index rows may be left. */
const PURGE_ADMIN = { token: 'tenant-purge-admin-key-000000000', tenantId: 'tenant-purge', roles: ['admin'] };

/**
 * The settings of the scenarios' systems: the test keys and the purge tenant's admin; sweeps only when a scenario
 * runs one; operators told of a duplicate by email; no rate limit (the scenarios send requests in bursts).
 */
export const IDENTITY_SETTINGS = {
  DSAR_API_KEYS: [...TEST_GATEWAY_SETTINGS.DSAR_API_KEYS, ...apiKeyListSchema.parse([PURGE_ADMIN])],
  RETENTION_SWEEP_INTERVAL_MS: 0,
  RATE_LIMIT_PER_MINUTE: 0,
  NOTIFIER_OPERATOR_EMAILS: [OPERATOR_ALERTS],
};

/** An address no other request of a system carries: `who` with a random tag. */
const addressOf = (who: string) => `${who}-${uniqueSuffix()}@example.org`;
/** A Berlin number no other request of a system carries, in international form. */
const berlinNumber = () => `+49 30 ${randomInt(2_000_000, 9_999_999)}`;

function expectProblem(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({ status, type: expect.stringContaining('application/problem+json'), code });
}

const idsOf = (res: ApiResponse): string[] => (res.body.items as Array<{ id: string }>).map((i) => i.id).sort();
const sorted = (...ids: string[]) => [...ids].sort();

/**
 * Issue 40 [identity] end to end through the gateway: a tenant's requests found by the person's email (in any
 * spelling), phone number or account id through the blind index and never from another tenant or workspace; bad
 * searches refused by name; a request that repeats an open one of the same person marked at intake (two at once end in
 * one group, a campaign of many people is not), shown in the detail, the queue and the timeline, and decided by an
 * operator; the index rows purged with the request.
 */
export function identityScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  let operator: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    operator = api.as(KEYS.operatorA.token);
  });
  const clock = () => getSystem().clock;

  /** Records a request through `POST /requests`; its id. */
  async function submit(body: Json, client: ApiClient = api): Promise<string> {
    const res = await client.post('/requests', body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: expect.objectContaining({ id: expect.any(String) }) });
    return res.body.id as string;
  }

  /** A request of Germany by web form: the requestor's details as given, no contact; `daysAgo` its receipt. */
  const webForm = (requestor: Json, daysAgo: number, over: Json = {}) =>
    intake(
      { requestor: { type: 'subject', name: 'Ada Lovelace', ...requestor }, ...over },
      { channel: 'web_form', contact: undefined, rawText: 'Please send me a copy of the personal data you hold about me.', receivedAt: clock().daysAgo(daysAgo) },
    );

  /** A request of Germany by email from `contact`: the requestor's name only. */
  const byEmail = (contact: string, daysAgo: number, over: Json = {}) =>
    intake(
      { requestor: { type: 'subject', name: 'Ada Lovelace' }, ...over },
      { channel: 'email', contact, rawText: 'I would like to see what data you have on me.', receivedAt: clock().daysAgo(daysAgo) },
    );

  /** A page of the queue (200), as `client` sees it. */
  async function queue(query: string, client: ApiClient = operator): Promise<ApiResponse> {
    const res = await client.get(`/requests?${query}&limit=200`);
    expect({ status: res.status, code: res.body?.code, errors: res.body?.errors }).toEqual({ status: 200, code: undefined, errors: undefined });
    return res;
  }
  const found = async (query: string, client: ApiClient = operator) => idsOf(await queue(query, client));
  const emailQuery = (email: string) => `identity=${encodeURIComponent(email)}&identityKind=email`;

  const detailOf = async (id: string, client: ApiClient = operator): Promise<Json> => {
    const res = await client.get(`/requests/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  /** Waits until the request's timeline holds every one of `types` (the audit ledger reads the events from the bus). */
  const timelineWith = (id: string, types: string[]) =>
    waitFor(
      `${types.join(', ')} on the timeline of ${id}`,
      async () => {
        const events = (await operator.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: Json }> | undefined;
        return events && types.every((t) => events.some((e) => e.eventType === t)) ? events : undefined;
      },
      { timeoutMs: 60_000 },
    );

  describe('search by identity', () => {
    let address: string;
    /** The same address with capitals: `Ada-…@Example.org`. */
    let spelled: string;
    let a: string;
    let b: string;

    beforeAll(async () => {
      address = addressOf('ada');
      spelled = address.replace(/^ada/, 'Ada').replace('@example.org', '@Example.org');
      // One person: her address with capitals by web form, then in small letters as the sender of an email asking for deletion.
      a = await submit(webForm({ email: spelled }, 3));
      b = await submit(byEmail(address, 2, { requestType: 'deletion' }));
    });

    it('finds both requests by the address in either spelling, echoes the kind and never the address', async () => {
      const pages = [await queue(`identity=${encodeURIComponent(`${spelled} `)}&identityKind=email`), await queue(`identity=${address}`)];
      for (const page of pages) {
        expect(idsOf(page)).toEqual(sorted(a, b));
        expect(page.body).toMatchObject({ identityKind: 'email', total: 2, totalExact: true });
        expect(page.body).not.toHaveProperty('identity');
        expect(JSON.stringify(page.body).toLowerCase()).not.toContain(address.split('@')[0]);
      }
      // The local part is kept as written: a +tag is another address, and so is a near spelling.
      expect(await found(emailQuery(address.replace('@', '+dsar@')))).toEqual([]);
      expect(await found(emailQuery(address.replace('ada-', 'ada.')))).toEqual([]);
    });

    it('combines with the status and request type filters', async () => {
      expect(await found(`${emailQuery(address)}&requestType=deletion`)).toEqual([b]);
      expect(await found(`${emailQuery(address)}&requestType=access,deletion`)).toEqual(sorted(a, b));
      expect((await operator.post(`/requests/${a}/acknowledgements`, {})).status).toBe(202);
      expect(await found(`${emailQuery(address)}&status=in_progress`)).toEqual([a]);
      expect(await found(`${emailQuery(address)}&status=received`)).toEqual([b]);
      expect(await found(`${emailQuery(address)}&status=received&requestType=access`)).toEqual([]);
    });

    it("finds a request by the requestor's phone in international or national form, by a contact that is a phone number, and by an account id as given", async () => {
      const phone = berlinNumber();
      const national = phone.replace('+49 30 ', '030 ');
      const byPhone = await submit(webForm({ email: addressOf('grace'), phone: national }, 1));
      const called = berlinNumber();
      const onThePhone = await submit(intake({ requestor: { type: 'subject', name: 'Grace Hopper' } }, { channel: 'phone', contact: called, receivedAt: clock().daysAgo(1) }));
      const account = `CUST-${uniqueSuffix().toUpperCase()}`;
      const byAccount = await submit(
        intake(
          { requestor: { type: 'subject', name: 'Grace Hopper' } },
          { channel: 'api', contact: undefined, receivedAt: clock().daysAgo(1), sourceEvidence: [{ type: 'account_id', reference: account }] },
        ),
      );

      const phonePage = await queue(`identity=${encodeURIComponent(phone)}&identityKind=phone`);
      expect({ ids: idsOf(phonePage), kind: phonePage.body.identityKind }).toEqual({ ids: [byPhone], kind: 'phone' });
      expect(await found(`identity=${encodeURIComponent(phone.replace(/ /g, ''))}&identityKind=phone`)).toEqual([byPhone]);
      // A national number reads in the country of the jurisdiction filter.
      expect(await found(`identity=${encodeURIComponent(national)}&identityKind=phone&jurisdiction=DE`)).toEqual([byPhone]);
      expect(await found(`identity=${encodeURIComponent(called)}&identityKind=phone`)).toEqual([onThePhone]);
      const accountPage = await queue(`identity=${account}&identityKind=account`);
      expect({ ids: idsOf(accountPage), kind: accountPage.body.identityKind }).toEqual({ ids: [byAccount], kind: 'account' });
      // An account id is matched as given (its case too), and a phone number or account id is no email.
      expect(await found(`identity=${account.toLowerCase()}&identityKind=account`)).toEqual([]);
      expect(await found(`identity=${encodeURIComponent(phone)}&identityKind=account`)).toEqual([]);
    });

    it('finds nothing from another tenant: an empty page', async () => {
      const page = await queue(emailQuery(address), api.as(KEYS.operatorB.token));
      expect(page.body).toMatchObject({ items: [], total: 0, totalExact: true, identityKind: 'email' });
    });

    it("a caller confined to a workspace finds only its workspace's requests", async () => {
      const person = addressOf('lin');
      const north = await submit(webForm({ email: person }, 2), api.as(KEYS.workspaceA.token));
      const south = await submit(webForm({ email: person }, 2, { requestType: 'deletion' }), api.as(KEYS.southIntakeA.token));
      const tenantWide = await submit(webForm({ email: person }, 2, { requestType: 'portability' }));
      expect(await found(emailQuery(person), api.as(KEYS.workspaceA.token))).toEqual([north]);
      expect(await found(emailQuery(person), api.as(KEYS.southIntakeA.token))).toEqual([south]);
      expect(await found(emailQuery(person))).toEqual(sorted(north, south, tenantWide));
    });

    it('takes a kind without an identity as no filter, and echoes no kind then', async () => {
      const all = await queue('sortBy=receivedAt');
      const kindAlone = await queue('sortBy=receivedAt&identityKind=phone');
      expect({ total: kindAlone.body.total, echoed: 'identityKind' in kindAlone.body }).toEqual({ total: all.body.total, echoed: false });
    });

    it.each([
      ['an empty identity', 400, 'SVC-BE-1102', 'identity', 'identity='],
      ['an email without @', 422, 'SVC-BE-1414', 'identity', `identity=${encodeURIComponent('ada.example.org')}`],
      ['an email with two @', 422, 'SVC-BE-1414', 'identity', `identity=${encodeURIComponent('ada@@example.org')}&identityKind=email`],
      ['an unknown kind', 400, 'SVC-BE-1102', 'identityKind', `identity=${encodeURIComponent('ada@example.org')}&identityKind=fax`],
      ['an identity of 513 characters', 400, 'SVC-BE-1102', 'identity', `identity=${'a'.repeat(501)}%40example.org`],
      ['a national phone number without a jurisdiction filter', 422, 'SVC-BE-1414', 'identity', `identity=${encodeURIComponent('030 1234567')}&identityKind=phone`],
      ['a phone number too short to be one', 422, 'SVC-BE-1414', 'identity', 'identity=12&identityKind=phone'],
    ])('%s: %d problem+json %s naming %s, and nothing changes', async (_case, status, code, field, query) => {
      const before = (await queue('sortBy=receivedAt')).body.total as number;
      const res = await operator.get(`/requests?${query}`);
      expectProblem(res, status, code);
      expect((res.body.errors as Array<{ field: string }>).map((e) => e.field)).toEqual([field]);
      // The problem does not repeat the identity searched for: its instance shows the parameter's value redacted.
      if (/identity=[^&]/.test(query)) expect(res.body.instance).toMatch(/[?&]identity=\[REDACTED\]/);
      expect(JSON.stringify(res.body)).not.toMatch(/example\.org|1234567/);
      expect((await queue('sortBy=receivedAt')).body.total).toBe(before);
    });
  });

  describe('a duplicate marked at intake, and decided by an operator', () => {
    let address: string;
    let first: string;
    let marked: string;

    beforeAll(async () => {
      address = addressOf('mo');
      first = await submit(webForm({ email: address }, 3));
      marked = await submit(byEmail(address.toUpperCase(), 2));
    });

    const resolve = (id: string, body: unknown, client: ApiClient = operator) => client.post(`/requests/${id}/duplicate-resolution`, body);
    /** What a refused decision must leave as it was. */
    const snapshot = async (id: string) => {
      const d = await detailOf(id);
      return { status: d.status, statusReason: d.statusReason, duplicate: d.duplicate, statusChangedAt: d.statusChangedAt, updatedAt: d.updatedAt };
    };

    it('is marked as a duplicate of the first, with what matched and how many requests carry the address', async () => {
      const detail = await detailOf(marked);
      expect(detail).toMatchObject({
        status: 'received',
        duplicate: { of: first, state: 'marked', matchedKinds: ['email'], markedAt: expect.any(String) },
        identityActivity: { requests: 2, windowDays: 30 },
      });
      expect(Number.isNaN(Date.parse(detail.duplicate.markedAt))).toBe(false);
      const original = await detailOf(first);
      expect(original).toMatchObject({ duplicate: null, identityActivity: { requests: 1, windowDays: 30 } });
    });

    it('is listed by the duplicate filter with the request it repeats; the first is not', async () => {
      const page = await queue(`duplicate=true&${emailQuery(address)}`);
      expect(page.body).toMatchObject({ duplicate: true, identityKind: 'email', total: 1 });
      expect(page.body.items).toEqual([expect.objectContaining({ id: marked, duplicateOf: first })]);
      const others = await queue(`duplicate=false&${emailQuery(address)}`);
      expect(others.body.items).toEqual([expect.objectContaining({ id: first, duplicateOf: null })]);
      expect((await found('duplicate=true')).includes(first)).toBe(false);
      const bad = await operator.get('/requests?duplicate=maybe');
      expectProblem(bad, 400, 'SVC-BE-1102');
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['duplicate']);
    });

    it('is on the timeline without the address, and the operators are told', async () => {
      const events = await timelineWith(marked, ['request_created', 'request_duplicate_marked']);
      const mark = events.find((e) => e.eventType === 'request_duplicate_marked')!;
      expect(mark.payload).toMatchObject({ requestId: marked, duplicateOf: first, matchedKinds: ['email'], windowDays: 30, sameIdentityRequests: 2 });
      expect(JSON.stringify(mark.payload).toLowerCase()).not.toContain(address.split('@')[0]);
      const alert = await waitFor(
        `the operators' duplicate alert of ${marked}`,
        async () => ((await operator.get(`/requests/${marked}/notifications`)).body.events as Json[] | undefined)?.find((e) => e.eventType === 'duplicate_marked'),
        { timeoutMs: 60_000 },
      );
      expect(alert).toMatchObject({ audience: 'operators' });
    });

    it.each([
      ['no reason', { resolution: 'confirmed' }],
      ['a blank reason', { resolution: 'confirmed', reason: '   ' }],
      ['an unknown resolution', { resolution: 'merged', reason: 'The same request twice' }],
      ['a message with separated', { resolution: 'separated', reason: 'Two requests', message: 'We keep both.' }],
      ['an unknown field', { resolution: 'confirmed', reason: 'The same request twice', duplicateOf: 'x' }],
    ])('%s: 400 problem+json, and nothing changes', async (_case, body) => {
      const before = await snapshot(marked);
      expectProblem(await resolve(marked, body), 400, 'SVC-BE-1102');
      expect(await snapshot(marked)).toEqual(before);
    });

    it('is not decided from another tenant (404), by a role that may not act (403), nor from another workspace (404)', async () => {
      const before = await snapshot(marked);
      const body = { resolution: 'confirmed', reason: 'The same request twice' };
      expectProblem(await resolve(marked, body, api.as(KEYS.operatorB.token)), 404, 'SVC-BE-1003');
      expectProblem(await resolve(marked, body, api.as(KEYS.auditorA.token)), 403, 'SVC-BE-1302');
      expectProblem(await resolve(marked, body, api.as(KEYS.intakeA.token)), 403, 'SVC-BE-1302');
      expectProblem(await resolve(marked, body, api.as(KEYS.workspaceA.token)), 404, 'SVC-BE-1003');
      expect(await snapshot(marked)).toEqual(before);
      // A duplicate in workspace south: not found from north either.
      const south = api.as(KEYS.southIntakeA.token);
      const elsewhere = addressOf('south');
      await submit(webForm({ email: elsewhere }, 2), south);
      const southMarked = await submit(byEmail(elsewhere, 1), south);
      expect((await detailOf(southMarked)).duplicate).toMatchObject({ state: 'marked' });
      const southBefore = await snapshot(southMarked);
      expectProblem(await resolve(southMarked, body, api.as(KEYS.workspaceA.token)), 404, 'SVC-BE-1003');
      expect(await snapshot(southMarked)).toEqual(southBefore);
    });

    it('a request intake never marked: 409 SVC-BE-1413, and nothing changes', async () => {
      const before = await snapshot(first);
      const res = await resolve(first, { resolution: 'confirmed', reason: 'The same request twice' });
      expectProblem(res, 409, 'SVC-BE-1413');
      expect(res.body).toMatchObject({ duplicate: null });
      expect(await snapshot(first)).toEqual(before);
    });

    it('confirmed: the request is refused as a duplicate, on the timeline; a second decision is a 409 SVC-BE-1413', async () => {
      const reason = 'The email repeats the web form request of the same day.';
      const res = await resolve(marked, { resolution: 'confirmed', reason });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id: marked, status: 'refused', dueAt: expect.any(String) });
      expect(await detailOf(marked)).toMatchObject({ status: 'refused', statusReason: 'duplicate', duplicate: { of: first, state: 'confirmed', matchedKinds: ['email'] } });
      const events = await timelineWith(marked, ['request_duplicate_resolved', 'request_refused']);
      expect(events.find((e) => e.eventType === 'request_duplicate_resolved')!.payload).toMatchObject({ duplicateOf: first, resolution: 'confirmed' });
      expect(events.find((e) => e.eventType === 'request_refused')!.payload).toMatchObject({ reason: 'duplicate', action: 'resolve_duplicate', status: 'refused' });
      // The reason is personal data: the chain keeps only its salted hash.
      expect(JSON.stringify(events)).not.toContain(reason);
      // On the audit chain, which verifies: the mark and the decision, with no address and no reason in clear.
      const exported = await waitFor(
        'the mark and the decision on the audit chain',
        async () => {
          const res = await operator.get(`/requests/${marked}/audit/export`);
          const types = res.status === 202 ? ((res.body.events as Json[]).map((e) => e.eventType) as string[]) : [];
          return ['dsar.request.duplicate_marked.v1', 'dsar.request.duplicate_resolved.v1', 'dsar.request.refused.v1'].every((t) => types.includes(t)) ? res : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect(JSON.stringify(exported.body)).not.toContain(reason);
      expect(JSON.stringify(exported.body).toLowerCase()).not.toContain(address.split('@')[0]);
      const verified = await operator.post(`/requests/${marked}/audit/verify`, { hash: exported.body.rootHash, sequence: exported.body.headSequence });
      expect({ status: verified.status, verified: verified.body.verified }).toEqual({ status: 202, verified: true });
      // Confirmed stays listed as a duplicate of the first.
      expect((await queue(`duplicate=true&${emailQuery(address)}`)).body.items).toEqual([expect.objectContaining({ id: marked, duplicateOf: first })]);

      const before = await snapshot(marked);
      const again = await resolve(marked, { resolution: 'separated', reason: 'On second thought' });
      expectProblem(again, 409, 'SVC-BE-1413');
      expect(again.body).toMatchObject({ duplicate: { of: first, state: 'confirmed' } });
      expect(await snapshot(marked)).toEqual(before);
    });

    it('separated: the request stays open as one of its own, no longer listed as a duplicate', async () => {
      const another = await submit(webForm({ email: address }, 1));
      expect((await detailOf(another)).duplicate).toMatchObject({ of: first, state: 'marked' });
      const res = await resolve(another, { resolution: 'separated', reason: 'A second account of hers, asked about separately.' });
      expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: { id: another, status: 'received', dueAt: expect.any(String) } });
      expect(await detailOf(another)).toMatchObject({ status: 'received', statusReason: null, duplicate: { of: first, state: 'separated' } });
      expect(await found(`duplicate=true&${emailQuery(address)}`)).toEqual([marked]);
      expect((await queue(`duplicate=false&${emailQuery(address)}`)).body.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: another, duplicateOf: null })]));
      const events = await timelineWith(another, ['request_duplicate_resolved']);
      expect(events.find((e) => e.eventType === 'request_duplicate_resolved')!.payload).toMatchObject({ resolution: 'separated', duplicateOf: first, status: 'received' });
      expect(events.some((e) => e.eventType === 'request_refused')).toBe(false);
    });

    it('a marked request that was closed meanwhile: 409 SVC-BE-1401', async () => {
      const late = await submit(webForm({ email: address }, 1));
      expect((await detailOf(late)).duplicate).toMatchObject({ state: 'marked' });
      expect((await operator.post(`/requests/${late}/closures`, { reason: 'withdrawn' })).status).toBe(202);
      const before = await snapshot(late);
      const res = await resolve(late, { resolution: 'confirmed', reason: 'The same request again' });
      expectProblem(res, 409, 'SVC-BE-1401');
      expect(res.body).toMatchObject({ currentStatus: 'closed', action: 'resolve_duplicate' });
      expect(await snapshot(late)).toEqual(before);
    });
  });

  describe('requests of one person recorded at once', () => {
    it('after a first request, pairs sent at once all join its group', async () => {
      const address = addressOf('twin');
      const first = await submit(webForm({ email: address }, 3));
      const later: string[] = [];
      for (let round = 0; round < 4; round++) {
        later.push(...(await Promise.all([submit(webForm({ email: address }, 2)), submit(byEmail(address.toUpperCase(), 2))])));
      }
      const details = await Promise.all(later.map((id) => detailOf(id)));
      expect(details.map((d) => ({ id: d.id, of: d.duplicate?.of, state: d.duplicate?.state }))).toEqual(later.map((id) => ({ id, of: first, state: 'marked' })));
      expect((await detailOf(first)).duplicate).toBeNull();
      expect(await found(`duplicate=true&${emailQuery(address)}`)).toEqual(sorted(...later));
    });

    it('two sent at once with no earlier one: exactly one is marked, against the other', async () => {
      for (let round = 0; round < 4; round++) {
        const address = addressOf('pair');
        const ids = await Promise.all([submit(webForm({ email: address }, 2)), submit(byEmail(address, 2))]);
        const details = await Promise.all(ids.map((id) => detailOf(id)));
        const markedOnes = details.filter((d) => d.duplicate !== null);
        expect({ round, marked: markedOnes.length }).toEqual({ round, marked: 1 });
        const other = details.find((d) => d.duplicate === null)!;
        expect(markedOnes[0].duplicate).toMatchObject({ of: other.id, state: 'marked' });
      }
    });
  });

  describe('campaigns', () => {
    const TEXT = 'Under Article 15 GDPR I request a copy of all my personal data. This request was sent with a campaign tool.';

    it('the same words from five people: none is a duplicate', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++)
        ids.push(
          await submit(intake({ requestor: { type: 'subject', email: addressOf(`campaign${i}`) } }, { channel: 'web_form', contact: undefined, rawText: TEXT, receivedAt: clock().daysAgo(2) })),
        );
      for (const d of await Promise.all(ids.map((id) => detailOf(id))))
        expect({ id: d.id, duplicate: d.duplicate, activity: d.identityActivity }).toEqual({ id: d.id, duplicate: null, activity: { requests: 1, windowDays: 30 } });
    });

    it('three from one address: the later two are marked, and the activity grows with each', async () => {
      const address = addressOf('sender');
      const ids: string[] = [];
      for (const daysAgo of [3, 2, 1]) {
        ids.push(await submit(intake({ requestor: { type: 'subject', email: address } }, { channel: 'web_form', contact: undefined, rawText: TEXT, receivedAt: clock().daysAgo(daysAgo) })));
        expect((await detailOf(ids[ids.length - 1])).identityActivity).toEqual({ requests: ids.length, windowDays: 30 });
      }
      const details = await Promise.all(ids.map((id) => detailOf(id)));
      expect(details.map((d) => [d.duplicate?.of ?? null, d.identityActivity.requests])).toEqual([
        [null, 1],
        [ids[0], 2],
        [ids[0], 3],
      ]);
    });
  });

  describe('a retention purge', () => {
    let admin: ApiClient;
    let ds: DataSource;
    beforeAll(() => {
      admin = new ApiClient(getSystem().gatewayUrl, PURGE_ADMIN.token);
      ds = getSystem().services.get('lifecycle-clock')!.app.get(UnitOfWork).dataSource;
    });
    const indexRows = async () => {
      const [{ n }]: Array<{ n: number }> = await ds.query(`SELECT count(*)::int AS n FROM ${qualifiedTable(ds, 'request_identities')} WHERE tenant_id = $1`, [PURGE_ADMIN.tenantId]);
      return n;
    };

    it("purges the index rows with the request: the tenant's search finds nothing and no row is left", async () => {
      const address = addressOf('gone');
      const phone = berlinNumber();
      // Two requests of one person a year and more ago, the second confirmed as a duplicate (refused), the first withdrawn.
      const ids = await clock().runAt(clock().now().getTime() - 400 * DAY, async () => {
        const original = await submit(webForm({ email: address, phone }, 1), admin);
        const repeated = await submit(byEmail(address, 0.5), admin);
        expect((await admin.get(`/requests/${repeated}`)).body.duplicate).toMatchObject({ of: original, state: 'marked' });
        expect((await admin.post(`/requests/${repeated}/duplicate-resolution`, { resolution: 'confirmed', reason: 'Sent twice' })).status).toBe(202);
        expect((await admin.post(`/requests/${original}/acknowledgements`, {})).status).toBe(202);
        expect((await admin.post(`/requests/${original}/closures`, { reason: 'withdrawn' })).status).toBe(202);
        return [original, repeated];
      });
      expect(idsOf(await admin.get(`/requests?${emailQuery(address)}`))).toEqual(sorted(...ids));
      expect(idsOf(await admin.get(`/requests?identity=${encodeURIComponent(phone)}&identityKind=phone`))).toEqual([ids[0]]);
      expect(await indexRows()).toBeGreaterThan(0);

      const policy = await admin.call('PUT', `/api/v1/tenants/${PURGE_ADMIN.tenantId}/retention`, { json: { class: 'request_record', purgeEnabled: true, minDays: 30, maxDays: 365 } });
      expect(policy.status).toBe(202);
      const due = await waitFor(
        "lifecycle-clock's copy of the request_record policy",
        async () => {
          const report = await admin.get(`/tenants/${PURGE_ADMIN.tenantId}/retention/report`);
          const entry = (report.body.classes as Array<{ class: string; blockedBy: string | null; requestIds: string[] }> | undefined)?.find((c) => c.class === 'request_record');
          return entry?.blockedBy === null ? entry : undefined;
        },
        { timeoutMs: 60_000 },
      );
      expect([...due.requestIds].sort()).toEqual(sorted(...ids));
      const swept = await getSystem().services.get('lifecycle-clock')!.app.get(RetentionSweeper).sweep();
      expect(swept['request_record']).toMatchObject({ records: 2 });

      for (const id of ids) expect((await admin.get(`/requests/${id}`)).status).toBe(404);
      const page = await admin.get(`/requests?${emailQuery(address)}`);
      expect({ status: page.status, items: page.body.items, total: page.body.total }).toEqual({ status: 200, items: [], total: 0 });
      expect(idsOf(await admin.get(`/requests?identity=${encodeURIComponent(phone)}&identityKind=phone`))).toEqual([]);
      expect(await indexRows()).toBe(0);
    });
  });
}

/**
 * A key rotation of the identity index across restarts, as an operator runs it on `npm start`'s data: requests
 * indexed under a first key; the new key alone does not find them; with the new key first and the old after, the
 * search finds them and a new request of the same person is marked against them; the system stopped,
 * `npm run identity:reindex` moves every row under the new key; then the new key alone finds them all.
 */
export function keyRotationScenarios(): void {
  const OLD = randomBytes(32).toString('base64url');
  const NEW = randomBytes(32).toString('base64url');
  const address = addressOf('rotated');
  const phone = berlinNumber();
  let dataDir: string;
  let system: TestSystem | undefined;
  let original: string;
  let repeated: string;
  let currentKeyId: string;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'dsar-identity-rotation-'));
  });
  // Each step stops the system it started, also when it fails: the next starts its own on the same data.
  afterEach(async () => stop());
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Starts the whole system on the data directory with `keys` (IDENTITY_INDEX_KEY, the current first); an operator's client. */
  async function start(keys: string[]): Promise<ApiClient> {
    const clock = new ManualClock(testNow());
    const running = await startSystem({ ...testHostConfig({ DATA_DIR: dataDir }), ...TEST_GATEWAY_SETTINGS, RATE_LIMIT_PER_MINUTE: 0, IDENTITY_INDEX_KEY: keys.join(',') }, { clock });
    system = { ...running, clock };
    return new ApiClient(system.gatewayUrl, KEYS.operatorA.token);
  }
  async function stop(): Promise<void> {
    await system?.close();
    system = undefined;
  }
  const search = async (client: ApiClient, query: string) => {
    const res = await client.get(`/requests?${query}&limit=200`);
    expect(res.status).toBe(200);
    return idsOf(res);
  };
  const byAddress = `identity=${encodeURIComponent(address)}`;
  const byPhone = `identity=${encodeURIComponent(phone)}&identityKind=phone`;

  /** `npm run identity:reindex` on the data directory, as a process of its own, with `keys`. */
  function reindex(keys: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, fail) => {
      const env: Record<string, string | undefined> = {
        ...process.env,
        DB_DRIVER: 'pglite',
        DATA_DIR: dataDir,
        IDENTITY_INDEX_KEY: keys.join(','),
        IDENTITY_INDEX_KEY_FILE: undefined,
        DATABASE_URL: undefined,
      };
      const child = spawn('npm', ['run', '--silent', 'identity:reindex'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  }

  it('indexes requests under the key it runs with', async () => {
    const client = await start([OLD]);
    const created = await client.post(
      '/requests',
      intake({ requestor: { type: 'subject', name: 'Rosalind Franklin', email: address, phone } }, { contact: undefined, receivedAt: new Date(testNow().getTime() - 2 * DAY).toISOString() }),
    );
    expect(created.status).toBe(202);
    original = created.body.id;
    expect(await search(client, byAddress)).toEqual([original]);
    expect(await search(client, byPhone)).toEqual([original]);
  }, 300_000);

  it('with the new key alone, before the reindex, does not find them: the rows are under the old key', async () => {
    const client = await start([NEW]);
    expect(await search(client, byAddress)).toEqual([]);
  }, 300_000);

  it('during the rotation (the new key first, the old after) finds them, and marks a new request of the same person against them', async () => {
    const client = await start([NEW, OLD]);
    expect(await search(client, byAddress)).toEqual([original]);
    const created = await client.post(
      '/requests',
      intake({ requestor: { type: 'subject', name: 'Rosalind Franklin' } }, { contact: address.toUpperCase(), receivedAt: new Date(testNow().getTime() - DAY).toISOString() }),
    );
    expect(created.status).toBe(202);
    repeated = created.body.id;
    const detail = (await client.get(`/requests/${repeated}`)).body;
    expect(detail.duplicate).toMatchObject({ of: original, state: 'marked' });
    expect(await search(client, byAddress)).toEqual(sorted(original, repeated));
    // Both requests carry the address, the first of them indexed under the old key.
    expect(detail.identityActivity).toEqual({ requests: 2, windowDays: 30 });
  }, 300_000);

  it('the reindex, run while the system is stopped, moves every row under the new key and says so, naming no key', async () => {
    const run = await reindex([NEW, OLD]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(run.stdout).toMatch(/^rows under other keys or rules: 0$/m);
    expect(Number(/^rewritten: (\d+)$/m.exec(run.stdout)?.[1])).toBeGreaterThanOrEqual(1);
    currentKeyId = /^current key: (\S+)$/m.exec(run.stdout)?.[1] ?? '';
    expect(currentKeyId).toMatch(/^[A-Za-z0-9_-]{12}$/);
    for (const key of [NEW, OLD]) expect(run.stdout + run.stderr).not.toContain(key);
  }, 300_000);

  it('after it, the new key alone finds the old requests by address and phone, and holds every row under it', async () => {
    const client = await start([NEW]);
    expect(await search(client, byAddress)).toEqual(sorted(original, repeated));
    expect(await search(client, `identity=${encodeURIComponent(address.toUpperCase())}`)).toEqual(sorted(original, repeated));
    expect(await search(client, byPhone)).toEqual([original]);
    const ds = system!.services.get('lifecycle-clock')!.app.get(UnitOfWork).dataSource;
    const keyIds: Array<{ key_id: string }> = await ds.query(`SELECT DISTINCT key_id FROM ${qualifiedTable(ds, 'request_identities')}`);
    expect(keyIds.map((k) => k.key_id)).toEqual([currentKeyId]);
    expect((await client.get(`/requests/${repeated}`)).body.identityActivity).toEqual({ requests: 2, windowDays: 30 });
    await stop();
    // A second run, with the old key removed, has nothing left to do.
    const again = await reindex([NEW]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(again.stdout).toMatch(/^rewritten: 0$/m);
    expect(again.stdout).toMatch(/^rows under other keys or rules: 0$/m);
  }, 300_000);
}

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...filesUnder(file));
    else out.push(file);
  }
  return out;
}

/**
 * Where docs/identity.md says a person's address is kept in clear: the `schema.table` names in the first column of the
 * first table under "Where a person's address is kept" (the tables that follow list the places that keep it in
 * another form).
 */
function documentedPlaces(): string[] {
  const doc = path.join(ROOT, 'docs/identity.md');
  if (!existsSync(doc)) throw new Error("docs/identity.md is missing: it lists where a person's address is kept");
  const lines = readFileSync(doc, 'utf8').split(/\r?\n/);
  const start = lines.findIndex((l) => /^#{2,4} Where a person.s address is kept\s*$/.test(l));
  if (start < 0) throw new Error('docs/identity.md has no "Where a person\'s address is kept" heading');
  const places: string[] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,4} /.test(line)) break;
    if (!line.trim().startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const first = line.trim().replace(/^\|/, '').split('|')[0].trim();
    places.push(...(first.match(/[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*/g) ?? []));
  }
  if (places.length === 0) throw new Error('the table under "Where a person\'s address is kept" in docs/identity.md names no schema.table');
  return [...new Set(places)].sort();
}

interface Relation {
  oid: number;
  filenode: string | null;
  relkind: string;
  name: string;
  owner: number | null;
  toastOwner: number | null;
}

/**
 * The name of the table a file of the PGlite cluster belongs to: a heap, index or TOAST file of the database named by
 * the table it serves (`schema.table`), a WAL segment as `pg_wal`; anything else by its path in the cluster.
 */
async function relationOfFile(ds: DataSource, databaseOid: string, relative: string): Promise<string> {
  const parts = relative.split(path.sep);
  if (parts[0] === 'pg_wal') return 'pg_wal';
  const node = /^(\d+)(?:\.\d+)?(?:_fsm|_vm|_init)?$/.exec(parts[parts.length - 1])?.[1];
  const inDatabase = parts.length === 3 && parts[0] === 'base' && parts[1] === databaseOid;
  const shared = parts.length === 2 && parts[0] === 'global';
  if (!node || !(inDatabase || shared)) return relative;
  const relations: Relation[] = await ds.query(
    `SELECT c.oid::int AS oid, pg_relation_filenode(c.oid)::text AS filenode, c.relkind::text AS relkind, n.nspname || '.' || c.relname AS name,
            i.indrelid::int AS owner, (SELECT o.oid::int FROM pg_class o WHERE o.reltoastrelid = c.oid) AS "toastOwner"
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_index i ON i.indexrelid = c.oid`,
  );
  const byOid = new Map(relations.map((r) => [r.oid, r]));
  let relation = relations.find((r) => r.filenode === node);
  if (!relation) return relative;
  // An index serves its table; a TOAST table (and its index) the table whose long values it keeps.
  if (relation.owner !== null) relation = byOid.get(relation.owner) ?? relation;
  if (relation.toastOwner !== null) relation = byOid.get(relation.toastOwner) ?? relation;
  return relation.name;
}

/**
 * Where a person's address ends up on disk in embedded mode (`npm start`'s layout, DATA_DIR on disk): every table of
 * every schema is searched for a fresh address, then every file under DATA_DIR, PGlite's files named by the table they
 * belong to. The tables must be those docs/identity.md lists; the identity index is never one of them, and no file
 * outside PGlite's folder holds the address in clear.
 */
export function addressScanScenarios(getSystem: () => TestSystem, dataDir: string): void {
  it('keeps the address only where docs/identity.md says: never in the identity index, nor in a file outside the database', async () => {
    const api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    const address = `scan-${randomBytes(6).toString('hex')}@example.org`;
    const created = await api.post(
      '/requests',
      intake({ requestor: { type: 'subject', name: 'Scan Subject', email: address } }, { channel: 'email', contact: address, receivedAt: getSystem().clock.daysAgo(1) }),
    );
    expect(created.status).toBe(202);
    expect(idsOf(await api.get(`/requests?identity=${encodeURIComponent(address)}`))).toEqual([created.body.id]);
    // Acknowledged, so that the notifier holds a message to the person too; every service's copy written before the scan.
    expect((await api.post(`/requests/${created.body.id}/acknowledgements`, {})).status).toBe(202);
    await waitFor(
      'the acknowledgement on the timeline',
      async () => ((await api.get(`/requests/${created.body.id}/timeline`)).body.events as Array<{ eventType: string }> | undefined)?.some((e) => e.eventType === 'request_acknowledged'),
      {
        timeoutMs: 60_000,
      },
    );
    await waitFor(
      'the acknowledgement to the person',
      async () => ((await api.get(`/requests/${created.body.id}/notifications`)).body.events as Array<{ eventType: string }> | undefined)?.some((e) => e.eventType === 'request_acknowledged'),
      { timeoutMs: 60_000 },
    );

    // One PGlite database holds every service's schema.
    const ds = getSystem().services.get('lifecycle-clock')!.app.get(UnitOfWork).dataSource;
    await ds.query('CHECKPOINT');

    const tables: Array<{ name: string; qualified: string }> = await ds.query(
      `SELECT schemaname || '.' || tablename AS name, format('%I.%I', schemaname, tablename) AS qualified FROM pg_tables ORDER BY 1`,
    );
    const holding: string[] = [];
    for (const table of tables) {
      const [{ n }]: Array<{ n: number }> = await ds.query(`SELECT count(*)::int AS n FROM ${table.qualified} AS t WHERE strpos(lower(t::text), lower($1)) > 0`, [address]);
      if (n > 0) holding.push(table.name);
    }

    const [{ oid: databaseOid }]: Array<{ oid: string }> = await ds.query('SELECT oid::text AS oid FROM pg_database WHERE datname = current_database()');
    const pgDir = path.join(dataDir, 'pg');
    const needle = Buffer.from(address);
    const filesHolding = filesUnder(dataDir).filter((file) => readFileSync(file).includes(needle));
    const outside = filesHolding.filter((file) => !file.startsWith(`${pgDir}${path.sep}`)).map((file) => path.relative(dataDir, file));
    const inDatabaseFiles = [
      ...new Set(await Promise.all(filesHolding.filter((file) => file.startsWith(`${pgDir}${path.sep}`)).map((file) => relationOfFile(ds, databaseOid, path.relative(pgDir, file))))),
    ].sort();

    // The scan sees the request itself: it would see the address anywhere else.
    expect(holding).toContain('lifecycle_clock.requests');
    expect(inDatabaseFiles).toContain('lifecycle_clock.requests');
    expect(holding).not.toContain('lifecycle_clock.request_identities');
    expect(inDatabaseFiles).not.toContain('lifecycle_clock.request_identities');
    expect({ outside }).toEqual({ outside: [] });
    const documented = documentedPlaces();
    expect({ undocumented: holding.filter((t) => !documented.includes(t)), holding }).toEqual({ undocumented: [], holding });
    expect({ undocumentedFiles: inDatabaseFiles.filter((t) => t !== 'pg_wal' && !documented.includes(t)), inDatabaseFiles }).toEqual({ undocumentedFiles: [], inDatabaseFiles });
  }, 300_000);
}
