import { waitFor } from '@dsar/platform/testing';
import type { TestSystem } from './systems';
import { ApiClient, type ApiResponse, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

type Json = Record<string, any>;

const REASON = 'The email asks for a copy of the data, not its deletion.';

/**
 * Correcting a request intake misread (`POST /requests/:id/corrections`, docs/lifecycle.md): the type and the
 * jurisdiction change, the deadline is computed again from the same receipt (equal to a request captured with the
 * corrected facts and that receipt), the clock explanation shows a `corrected` step, the timeline and the audit
 * chain the event (the reason only as a hash), a second correction follows; refusals change nothing.
 */
export function correctionScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.operatorA.token);
  });

  const correct = (id: string, body: unknown, client: ApiClient = api) => client.post(`/requests/${id}/corrections`, body);

  async function capture(overrides: Json, receivedAt: string): Promise<Json> {
    const created = await api.post('/requests/capture', intake(overrides, { receivedAt }));
    expect(created.status).toBe(202);
    return (await api.get(`/requests/${created.body.id}`)).body;
  }

  function expectProblem(res: ApiResponse, status: number, code: string): void {
    expect({ status: res.status, type: res.headers.get('content-type'), code: res.body?.code }).toEqual({ status, type: expect.stringContaining('application/problem+json'), code });
  }

  /** What a refused correction must leave as it was. */
  const snapshot = async (id: string) => {
    const detail = (await api.get(`/requests/${id}`)).body;
    const clock = (await api.get(`/requests/${id}/clock/explain`)).body;
    return { requestType: detail.requestType, jurisdiction: detail.jurisdiction, dueAt: detail.dueAt, policyVersion: detail.policyVersion, corrections: clock.corrections };
  };

  describe('a request intake misread', () => {
    let receivedAt: string;
    let original: Json;
    beforeAll(async () => {
      receivedAt = getSystem().clock.daysAgo(3);
      original = await capture({ jurisdiction: 'DE', requestType: 'deletion' }, receivedAt);
    });

    it('takes a corrected type: the deadline is computed again from the same receipt, and the explanation says so', async () => {
      const res = await correct(original.id, { requestType: 'access', reason: REASON });
      expect(res.status).toBe(202);
      const reference = await capture({ jurisdiction: 'DE', requestType: 'access' }, receivedAt);
      expect(res.body).toEqual({
        id: original.id,
        status: original.status,
        requestType: 'access',
        jurisdiction: 'DE',
        policyPack: reference.policyPack,
        policyVersion: reference.policyVersion,
        previousDueAt: original.dueAt,
        dueAt: reference.dueAt,
      });
      const detail = (await api.get(`/requests/${original.id}`)).body;
      expect(detail).toMatchObject({ requestType: 'access', jurisdiction: 'DE', dueAt: reference.dueAt, intakeSource: { receivedAt } });

      const clock = (await api.get(`/requests/${original.id}/clock/explain`)).body;
      expect(clock).toMatchObject({ requestType: 'access', finalDueAt: reference.dueAt, clock: { receivedAt: new Date(receivedAt).toISOString() } });
      expect(clock.corrections).toEqual([
        {
          step: 'corrected',
          at: expect.any(String),
          actor: expect.stringMatching(/^key:/),
          reason: REASON,
          from: { requestType: 'deletion', jurisdiction: 'DE', policyPack: original.policyPack, policyVersion: original.policyVersion, dueAt: original.dueAt },
          to: { requestType: 'access', jurisdiction: 'DE', policyPack: reference.policyPack, policyVersion: reference.policyVersion, dueAt: reference.dueAt },
        },
      ]);
      expect(clock.steps.filter((s: string) => s.startsWith('Corrected'))).toEqual([expect.stringContaining('request type deletion → access')]);
      expect(clock.steps.find((s: string) => s.startsWith('Corrected'))).toContain(`same receipt (${new Date(receivedAt).toISOString()})`);
    });

    it('takes a second correction, of the jurisdiction, on a new pack: each is recorded', async () => {
      const before = (await api.get(`/requests/${original.id}`)).body;
      const res = await correct(original.id, { jurisdiction: 'us-ca', reason: 'The requester lives in California.' });
      expect(res.status).toBe(202);
      const reference = await capture({ jurisdiction: 'US-CA', requestType: 'access' }, receivedAt);
      expect(res.body).toMatchObject({ jurisdiction: 'US-CA', requestType: 'access', policyPack: reference.policyPack, previousDueAt: before.dueAt, dueAt: reference.dueAt });
      expect(reference.dueAt).not.toBe(before.dueAt);
      const clock = (await api.get(`/requests/${original.id}/clock/explain`)).body;
      expect(clock.corrections.map((c: Json) => [c.from.jurisdiction, c.to.jurisdiction, c.to.requestType])).toEqual([
        ['DE', 'DE', 'access'],
        ['DE', 'US-CA', 'access'],
      ]);
      expect(clock).toMatchObject({ jurisdiction: 'US-CA', policyPack: reference.policyPack, finalDueAt: reference.dueAt });
    });

    it('puts each correction on the timeline and the audit chain, the reason only as a hash', async () => {
      // In distributed mode the audit ledger reads the events from Kafka: wait until both arrived.
      const corrected = await waitFor('both corrections on the timeline', async () => {
        const res = await api.get(`/requests/${original.id}/timeline`);
        const events = ((res.body.events ?? []) as Json[]).filter((e) => /corrected/.test(e.eventType));
        return events.length === 2 ? events : undefined;
      });
      expect(corrected[0].payload).toMatchObject({ action: 'correct_request', previousRequestType: 'deletion', requestType: 'access', previousJurisdiction: 'DE', jurisdiction: 'DE' });
      expect(corrected[1].payload).toMatchObject({ previousJurisdiction: 'DE', jurisdiction: 'US-CA' });

      const exported = await waitFor('both corrections on the audit chain', async () => {
        const res = await api.get(`/requests/${original.id}/audit/export`);
        return res.status === 202 && (res.body.events as Json[]).filter((e) => e.eventType === 'dsar.request.corrected.v1').length === 2 ? res : undefined;
      });
      expect(JSON.stringify(exported.body)).not.toContain(REASON);
      const verified = await api.post(`/requests/${original.id}/audit/verify`, { hash: exported.body.rootHash, sequence: exported.body.headSequence });
      expect({ status: verified.status, verified: verified.body.verified }).toEqual({ status: 202, verified: true });
    });
  });

  describe('refusals change nothing', () => {
    let id: string;
    beforeAll(async () => {
      id = (await capture({ jurisdiction: 'DE', requestType: 'access' }, getSystem().clock.daysAgo(2))).id;
    });

    it.each([
      ['no reason', { requestType: 'deletion' }],
      ['a blank reason', { requestType: 'deletion', reason: '   ' }],
      ['an unknown type', { requestType: 'erase_everything', reason: REASON }],
      ['an unknown field', { requestType: 'deletion', reason: REASON, status: 'closed' }],
    ])('%s: 400 problem+json', async (_name, body) => {
      const before = await snapshot(id);
      expectProblem(await correct(id, body), 400, 'SVC-BE-1102');
      expect(await snapshot(id)).toEqual(before);
    });

    it('a jurisdiction no pack covers: 422 SVC-BE-1501', async () => {
      const before = await snapshot(id);
      expectProblem(await correct(id, { jurisdiction: 'XX', reason: REASON }), 422, 'SVC-BE-1501');
      expect(await snapshot(id)).toEqual(before);
    });

    it.each([
      ['nothing to change', { reason: REASON }],
      ['the facts it already has', { requestType: 'access', jurisdiction: 'de', reason: REASON }],
    ])('%s: 422 SVC-BE-1411', async (_name, body) => {
      const before = await snapshot(id);
      const res = await correct(id, body);
      expectProblem(res, 422, 'SVC-BE-1411');
      expect(res.body).toMatchObject({ requestType: 'access', jurisdiction: 'DE' });
      expect(await snapshot(id)).toEqual(before);
    });

    it("another tenant's request is not found (404), and a role that may not act is refused (403)", async () => {
      const before = await snapshot(id);
      expectProblem(await correct(id, { requestType: 'deletion', reason: REASON }, api.as(KEYS.operatorB.token)), 404, 'SVC-BE-1003');
      expectProblem(await correct(id, { requestType: 'deletion', reason: REASON }, api.as(KEYS.auditorA.token)), 403, 'SVC-BE-1302');
      expectProblem(await correct(id, { requestType: 'deletion', reason: REASON }, api.as(KEYS.intakeA.token)), 403, 'SVC-BE-1302');
      expect(await snapshot(id)).toEqual(before);
    });

    it('a decided request: 409 SVC-BE-1401 naming what is allowed', async () => {
      const closed = (await capture({ jurisdiction: 'DE', requestType: 'access' }, getSystem().clock.daysAgo(2))).id;
      expect((await api.post(`/requests/${closed}/refusals`, { reason: 'duplicate' })).status).toBe(202);
      const before = await snapshot(closed);
      const res = await correct(closed, { requestType: 'deletion', reason: REASON });
      expectProblem(res, 409, 'SVC-BE-1401');
      expect(res.body).toMatchObject({ currentStatus: 'refused', action: 'correct_request', allowedActions: expect.arrayContaining(['close']) });
      expect(res.body.allowedActions).not.toContain('correct_request');
      expect(await snapshot(closed)).toEqual(before);
    });
  });

  it('two concurrent submissions of one correction: one applies, the other changes nothing (422)', async () => {
    const { id } = await capture({ jurisdiction: 'DE', requestType: 'access' }, getSystem().clock.daysAgo(1));
    const answers = await Promise.all([0, 1].map(() => correct(id, { requestType: 'deletion', reason: REASON })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 422]);
    expect(answers.find((a) => a.status === 422)?.body.code).toBe('SVC-BE-1411');
    const clock = (await api.get(`/requests/${id}/clock/explain`)).body;
    expect(clock.corrections).toHaveLength(1);
    expect(clock.requestType).toBe('deletion');
  });
}
