import { createHash, randomUUID } from 'node:crypto';
import type { Principal } from '@dsar/contracts';
import { InternalAuthKey, LifecycleClient } from '@dsar/platform/http';
import type { TestSystem } from './systems';
import { type ApiResponse, ApiClient, intake, ownPerson } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { servicePrincipal, signedInternalHeaders } from './internal-identity';

type Status = 'received' | 'in_progress' | 'clarification_pending' | 'verification_pending' | 'fulfilled' | 'refused' | 'closed';

/**
 * The workflow of docs/lifecycle.md, by hand: where each action leads from
 * each status ('same' = the status stays). Anything not listed is refused
 * with 409 SVC-BE-1401.
 */
const OPEN_RECORD_ACTIONS = { replace_requestor: 'same', submit_authority: 'same' } as const;
const MATRIX: Record<Status, Record<string, Status | 'same'>> = {
  received: { acknowledge: 'in_progress', request_clarification: 'clarification_pending', request_verification: 'verification_pending', refuse: 'refused', close: 'closed', ...OPEN_RECORD_ACTIONS },
  in_progress: { request_clarification: 'clarification_pending', request_verification: 'verification_pending', fulfil: 'fulfilled', refuse: 'refused', close: 'closed', ...OPEN_RECORD_ACTIONS },
  clarification_pending: { acknowledge: 'same', receive_clarification: 'in_progress', request_verification: 'verification_pending', refuse: 'refused', close: 'closed', ...OPEN_RECORD_ACTIONS },
  verification_pending: { acknowledge: 'same', approve_verification: 'in_progress', reject_verification: 'refused', refuse: 'refused', close: 'closed', ...OPEN_RECORD_ACTIONS },
  fulfilled: { close: 'closed', replace_requestor: 'same', appeal: 'same' },
  refused: { close: 'closed', replace_requestor: 'same', appeal: 'same' },
  closed: { replace_requestor: 'same', appeal: 'same' },
};

/** What a 409 lists as allowed in each state the matrix sets up (clock changes included; in_progress is acknowledged). */
const CLOCK_ACTIONS = ['extend_deadline', 'pause_clock', 'resume_clock'];
const ALLOWED_LISTED: Record<Status, string[]> = {
  received: ['acknowledge', 'request_clarification', 'request_verification', 'refuse', 'close', 'replace_requestor', 'correct_request', 'submit_authority', ...CLOCK_ACTIONS],
  in_progress: ['request_clarification', 'request_verification', 'fulfil', 'refuse', 'close', 'replace_requestor', 'correct_request', 'submit_authority', ...CLOCK_ACTIONS],
  clarification_pending: ['acknowledge', 'receive_clarification', 'request_verification', 'refuse', 'close', 'replace_requestor', 'correct_request', 'submit_authority', ...CLOCK_ACTIONS],
  verification_pending: ['acknowledge', 'approve_verification', 'reject_verification', 'refuse', 'close', 'replace_requestor', 'correct_request', 'submit_authority', ...CLOCK_ACTIONS],
  fulfilled: ['close', 'replace_requestor', 'appeal'],
  refused: ['close', 'replace_requestor', 'appeal'],
  closed: ['replace_requestor', 'appeal'],
};

const REFUSAL = { reason: 'manifestly_unfounded', message: 'We cannot act on this request.', rationale: 'Third identical request this week.' };
const AUTHORITY = { evidenceArtifacts: [{ type: 'power_of_attorney', reference: 'dms://poa/123' }], status: 'submitted' };

/**
 * Issue [lifecycle] end to end through the gateway (and, for the steps the
 * verification and fulfilment services own, lifecycle-clock's internal API):
 * the transition matrix, clarifications and the clock, refusals, closures,
 * requestor and authority, appeals, concurrency, and the timeline.
 */
export function lifecycleScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  /** A step owned by another service (verification, fulfilment-delivery), on lifecycle-clock's internal API. */
  async function internal(id: string, step: string, json: unknown = {}): Promise<ApiResponse> {
    const base = getSystem().services.get('lifecycle-clock')!.url;
    const res = await fetch(`${base}/internal/v1/requests/${id}/lifecycle/${step}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', `${base}/internal/v1/requests/${id}/lifecycle/${step}`, servicePrincipal(KEYS.adminA.tenantId)),
      },
      body: JSON.stringify(json),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  }

  /** `GET /internal/v1/requests/:id/transitions/:eventId` on lifecycle-clock's internal port, as a service of `principal`'s tenant (the notifier). */
  async function transitionOf(id: string, eventId: string, principal: Principal = servicePrincipal(KEYS.adminA.tenantId, 'service:notifier')): Promise<ApiResponse> {
    const url = `${getSystem().services.get('lifecycle-clock')!.url}/internal/v1/requests/${id}/transitions/${eventId}`;
    const res = await fetch(url, { headers: { accept: 'application/json', ...signedInternalHeaders(getSystem().internalAuthKey, 'GET', url, principal) } });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  }

  /** The id of the newest event of `eventType` on the request's timeline: the domain event a step emitted. */
  async function eventIdOf(id: string, eventType: string): Promise<string> {
    const events = (await api.get(`/requests/${id}/timeline`)).body.events as Array<{ id: string; eventType: string }>;
    const event = events.filter((e) => e.eventType === eventType).at(-1);
    if (!event) throw new Error(`request ${id} has no ${eventType} event: ${events.map((e) => e.eventType).join(', ')}`);
    return event.id;
  }

  /** A request of a person of its own: one person's would be marked as duplicates, with `resolve_duplicate` among their actions. */
  async function capture(jurisdiction = 'DE', receivedAt = getSystem().clock.daysAgo(3), extra: Record<string, unknown> = {}): Promise<string> {
    const { requestor, contact } = ownPerson();
    const created = await api.post('/requests/capture', intake({ jurisdiction, requestor, ...extra }, { receivedAt, contact }));
    expect(created.status).toBe(202);
    return created.body.id as string;
  }

  const ACTIONS: Record<string, (id: string) => Promise<ApiResponse>> = {
    acknowledge: (id) => api.post(`/requests/${id}/acknowledgements`, { channel: 'email' }),
    request_clarification: (id) => api.post(`/requests/${id}/clarifications/request`, { message: 'Which account do you mean?' }),
    receive_clarification: (id) => api.post(`/requests/${id}/clarifications/receive`, { message: 'The shop account.' }),
    request_verification: (id) => internal(id, 'verification-requested'),
    approve_verification: (id) => internal(id, 'verification-approved'),
    reject_verification: (id) => internal(id, 'verification-rejected'),
    fulfil: (id) => internal(id, 'fulfilled'),
    refuse: (id) => api.post(`/requests/${id}/refusals`, REFUSAL),
    close: (id) => api.post(`/requests/${id}/closures`, {}),
    replace_requestor: (id) => api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { type: 'authorized_agent', name: 'Agent Smith' } }),
    submit_authority: (id) => api.post(`/requests/${id}/authority/submit`, AUTHORITY),
    appeal: (id) => api.post(`/requests/${id}/appeals`, { message: 'I disagree.' }),
  };

  async function ok(res: ApiResponse, status = 202): Promise<ApiResponse> {
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return res;
  }

  /** A new request brought into `status` through the API. */
  async function requestIn(status: Status): Promise<string> {
    const id = await capture();
    const via: Record<Status, string[]> = {
      received: [],
      in_progress: ['acknowledge'],
      clarification_pending: ['request_clarification'],
      verification_pending: ['request_verification'],
      fulfilled: ['acknowledge', 'fulfil'],
      refused: ['refuse'],
      closed: ['close'],
    };
    for (const step of via[status]) await ok(await ACTIONS[step](id));
    return id;
  }

  describe('the transition matrix', () => {
    const cases = (Object.keys(MATRIX) as Status[]).flatMap((status) => Object.keys(ACTIONS).map((action) => [status, action] as const));
    it.each(cases)('%s + %s', async (status, action) => {
      const id = await requestIn(status);
      const res = await ACTIONS[action](id);
      const expected = MATRIX[status][action];
      if (expected !== undefined) {
        expect({ status: res.status, code: res.body.code }).toEqual({ status: 202, code: undefined });
        const to = expected === 'same' ? status : expected;
        if (action !== 'appeal') expect(res.body).toEqual({ id, status: to, dueAt: expect.any(String) });
        expect((await api.get(`/requests/${id}`)).body.status).toBe(to);
      } else {
        expect(res.status).toBe(409);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ code: 'SVC-BE-1401', name: 'LIFECYCLE_TRANSITION_DISALLOWED', currentStatus: status, action, allowedActions: ALLOWED_LISTED[status] });
        expect(res.body.detail).toContain(`is ${status}`);
        for (const allowed of ALLOWED_LISTED[status]) expect(res.body.detail).toContain(allowed);
        // Nothing changed.
        expect((await api.get(`/requests/${id}`)).body.status).toBe(status);
      }
    });

    it('clock changes on a finished request answer 409 with what is still allowed', async () => {
      const id = await requestIn('refused');
      for (const [path, body] of [
        ['/extensions', { reason: 'x' }],
        ['/clock/pauses', { reason: 'fee' }],
        ['/clock/resume', {}],
      ] as const) {
        const res = await api.post(`/requests/${id}${path}`, body);
        expect(res.status).toBe(409);
        expect(res.body).toMatchObject({ code: 'SVC-BE-1401', currentStatus: 'refused', allowedActions: ['close', 'replace_requestor', 'appeal'] });
      }
    });
  });

  describe('acknowledgement', () => {
    it('moves a received request to in_progress once, and records when', async () => {
      const id = await capture('US-CA', getSystem().clock.daysAgo(2), { requestType: 'access' });
      const before = (await api.get(`/requests/${id}`)).body;
      expect(before).toMatchObject({ acknowledgedAt: null, acknowledgementDueAt: expect.any(String), statusReason: null });
      const res = await ok(await api.post(`/requests/${id}/acknowledgements`, { channel: 'email', message: 'We have your request.' }));
      expect(res.body).toEqual({ id, status: 'in_progress', dueAt: before.dueAt });
      const after = (await api.get(`/requests/${id}`)).body;
      expect(after.acknowledgedAt).toEqual(expect.any(String));
      expect(after.statusChangedAt).toBe(after.acknowledgedAt);
      const again = await api.post(`/requests/${id}/acknowledgements`, {});
      expect(again.status).toBe(409);
      expect(again.body.detail).toContain('acknowledged at');
      const timeline = await api.get(`/requests/${id}/timeline`);
      const event = timeline.body.events.find((e: { eventType: string }) => e.eventType === 'request_acknowledged');
      expect(event.payload).toMatchObject({ fromStatus: 'received', status: 'in_progress', channel: 'email', hasMessage: true, acknowledgementDueAt: before.acknowledgementDueAt });
      expect(JSON.stringify(event.payload)).not.toContain('We have your request');
    });

    it('a pack without an acknowledgement deadline shows none', async () => {
      expect((await api.get(`/requests/${await capture('DE')}`)).body.acknowledgementDueAt).toBeNull();
    });
  });

  describe('clarifications and the clock', () => {
    // Asked and answered on one day: one suspended local day. Whether it moves the deadline depends on the weekday
    // the deadline falls on, so each case names its dates (UK GDPR: one month, rolled to the next working day).
    it.each([
      [
        'a weekday deadline moves by the suspended day: Mon 1 Jun 2026 -> Wed 1 Jul, asked Fri 5 Jun -> Thu 2 Jul',
        '2026-06-01T09:00:00Z',
        '2026-06-05T10:00:00Z',
        '2026-07-01T22:59:59.999Z',
        '2026-07-02T22:59:59.999Z',
      ],
      [
        'a deadline rolled off a weekend absorbs it: Fri 20 Nov 2026 -> Sun 20 Dec -> Mon 21 Dec, asked Wed 25 Nov -> still Mon 21 Dec',
        '2026-11-20T09:00:00Z',
        '2026-11-25T10:00:00Z',
        '2026-12-21T23:59:59.999Z',
        '2026-12-21T23:59:59.999Z',
      ],
    ])('UK access: asking pauses the clock, the answer resumes it; %s', (_title, receivedAt, askedAt, dueBefore, dueAfter) =>
      getSystem().clock.runAt(askedAt, async () => {
        const id = await capture('GB', receivedAt, { requestType: 'access' });
        expect((await api.get(`/requests/${id}`)).body.dueAt).toBe(dueBefore);
        const asked = await ok(await api.post(`/requests/${id}/clarifications/request`, { message: 'Which of your two accounts?', channel: 'email' }));
        expect(asked.body).toEqual({ id, status: 'clarification_pending', dueAt: dueBefore });
        const paused = (await api.get(`/requests/${id}/clock/explain`)).body;
        expect(paused.clock).toMatchObject({ state: 'paused' });
        expect(paused.pauses).toEqual([expect.objectContaining({ reason: 'clarification', rule: 'suspend', effect: 'pending' })]);

        const answered = await ok(await api.post(`/requests/${id}/clarifications/receive`, { message: 'The shop account.' }));
        expect(answered.body.status).toBe('in_progress');
        const explained = (await api.get(`/requests/${id}/clock/explain`)).body;
        expect(explained.clock.state).toBe('running');
        expect(explained.pauses).toEqual([expect.objectContaining({ reason: 'clarification', effect: 'suspended', excludedDays: 1 })]);
        expect(answered.body.dueAt).toBe(dueAfter);
        expect((await api.get(`/requests/${id}`)).body.dueAt).toBe(dueAfter);
        expect(explained.finalDueAt).toBe(dueAfter);
      }),
    );

    it('the answer may be dated back, not before the question nor into the future (nothing changes)', async () => {
      const id = await capture('GB', getSystem().clock.daysAgo(5));
      await ok(await api.post(`/requests/${id}/clarifications/request`, { message: 'Which account?' }));
      const early = await api.post(`/requests/${id}/clarifications/receive`, { receivedAt: getSystem().clock.daysAgo(1) });
      expect(early.status).toBe(422);
      expect(early.body.code).toBe('SVC-BE-1508');
      const future = await api.post(`/requests/${id}/clarifications/receive`, { receivedAt: getSystem().clock.later(3_600_000) });
      expect(future.status).toBe(422);
      expect((await api.get(`/requests/${id}`)).body.status).toBe('clarification_pending');
    });

    it('a clock already paused for a fee stays paused, and the clarification does not resume it', async () => {
      const id = await capture('GB', getSystem().clock.daysAgo(5));
      await ok(await api.post(`/requests/${id}/clock/pauses`, { reason: 'fee' }));
      await ok(await api.post(`/requests/${id}/clarifications/request`, { message: 'Which account?' }));
      await ok(await api.post(`/requests/${id}/clarifications/receive`, {}));
      const explained = (await api.get(`/requests/${id}/clock/explain`)).body;
      expect(explained.pauses).toEqual([expect.objectContaining({ reason: 'fee', effect: 'pending' })]);
      const timeline = (await api.get(`/requests/${id}/timeline`)).body.events;
      expect(timeline.find((e: { eventType: string }) => e.eventType === 'request_clarification_requested').payload.clockPaused).toBe(false);
    });

    it('identity verification asked during a clarification ends that pause and starts its own', async () => {
      const id = await capture('GB', getSystem().clock.daysAgo(5));
      await ok(await api.post(`/requests/${id}/clarifications/request`, { message: 'Which account?' }));
      expect((await ok(await internal(id, 'verification-requested'))).body.status).toBe('verification_pending');
      const explained = (await api.get(`/requests/${id}/clock/explain`)).body;
      expect(explained.pauses.map((p: { reason: string; effect: string }) => [p.reason, p.effect])).toEqual([
        ['clarification', 'suspended'],
        ['verification', 'pending'],
      ]);
      await ok(await internal(id, 'verification-approved'));
      const after = (await api.get(`/requests/${id}/clock/explain`)).body;
      expect(after.pauses[1]).toMatchObject({ reason: 'verification', effect: 'restarted' });
      expect(after.clock.state).toBe('running');
    });

    it('asking for clarification needs a message (400, nothing changes)', async () => {
      const id = await capture();
      for (const body of [{}, { message: '' }, { message: 'x', channel: 'pigeon' }, { message: 'x', extra: 1 }]) {
        const res = await api.post(`/requests/${id}/clarifications/request`, body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('SVC-BE-1102');
      }
      expect((await api.get(`/requests/${id}`)).body.status).toBe('received');
    });
  });

  describe('refusals and closures', () => {
    it('refuses with a documented reason; the event carries the reason and not the words', async () => {
      const id = await capture();
      const res = await ok(await api.post(`/requests/${id}/refusals`, REFUSAL));
      expect(res.body.status).toBe('refused');
      expect((await api.get(`/requests/${id}`)).body).toMatchObject({ status: 'refused', statusReason: 'manifestly_unfounded' });
      const event = (await api.get(`/requests/${id}/timeline`)).body.events.at(-1);
      expect(event).toMatchObject({ eventType: 'request_refused', payload: { reason: 'manifestly_unfounded', fromStatus: 'received', status: 'refused', action: 'refuse' } });
      expect(JSON.stringify(event.payload)).not.toContain('identical request');
    });

    it('every refusal field is optional: {} refuses with reason `other`; no message or rationale is fine', async () => {
      const bare = await capture();
      expect((await ok(await api.post(`/requests/${bare}/refusals`, {}))).body.status).toBe('refused');
      expect((await api.get(`/requests/${bare}`)).body).toMatchObject({ status: 'refused', statusReason: 'other' });
      const event = (await api.get(`/requests/${bare}/timeline`)).body.events.at(-1);
      expect(event).toMatchObject({ eventType: 'request_refused', payload: { reason: 'other', status: 'refused' } });
      const reasonOnly = await capture();
      await ok(await api.post(`/requests/${reasonOnly}/refusals`, { reason: 'excessive', rationale: 'r' }));
      expect((await api.get(`/requests/${reasonOnly}`)).body).toMatchObject({ status: 'refused', statusReason: 'excessive' });
    });

    it.each([
      ['an unknown reason', { ...REFUSAL, reason: 'too_busy' }, 'reason'],
      ['an empty message', { reason: 'excessive', message: '' }, 'message'],
      ['a blank rationale', { reason: 'excessive', rationale: '   ' }, 'rationale'],
      ['a field it does not know', { ...REFUSAL, status: 'refused' }, 'status'],
    ])('refusal with %s: 400 naming the field, nothing changes', async (_t, body, field) => {
      const id = await capture();
      const res = await api.post(`/requests/${id}/refusals`, body);
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await api.get(`/requests/${id}`)).body.status).toBe('received');
    });

    it('closing an open request records it as withdrawn; closing a refused one as completed', async () => {
      const open = await capture();
      await ok(await api.post(`/requests/${open}/closures`, {}));
      expect((await api.get(`/requests/${open}`)).body).toMatchObject({ status: 'closed', statusReason: 'withdrawn' });
      const refused = await requestIn('refused');
      await ok(await api.post(`/requests/${refused}/closures`, { message: 'Archived.' }));
      expect((await api.get(`/requests/${refused}`)).body).toMatchObject({ status: 'closed', statusReason: 'completed' });
      const dup = await capture();
      await ok(await api.post(`/requests/${dup}/closures`, { reason: 'duplicate' }));
      expect((await api.get(`/requests/${dup}`)).body.statusReason).toBe('duplicate');
      expect((await api.post(`/requests/${dup}/closures`, { reason: 'whatever' })).status).toBe(400);
    });
  });

  describe('requestor and authority', () => {
    it('PUT /requestor replaces the snapshot whole; type is required', async () => {
      const id = await capture();
      const missing = await api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { name: 'No Type' } });
      expect(missing.status).toBe(400);
      expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'type' })]);
      const res = await api.call('PUT', `/api/v1/requests/${id}/requestor`, { json: { type: 'parent_or_guardian', name: 'Mary Doe', relation: 'mother' } });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ id, status: 'received', dueAt: expect.any(String) });
      expect((await api.get(`/requests/${id}`)).body.requestor).toEqual({ type: 'parent_or_guardian', name: 'Mary Doe', relation: 'mother' });
      const event = (await api.get(`/requests/${id}/timeline`)).body.events.at(-1);
      expect(event).toMatchObject({ eventType: 'request_requestor_replaced', payload: { requestorType: 'parent_or_guardian', previousRequestorType: 'subject' } });
      expect(JSON.stringify(event.payload)).not.toContain('Mary');
    });

    it('authority evidence: approve or reject only what was submitted (409 otherwise), and the detail shows the result', async () => {
      const id = await capture();
      const early = await api.post(`/requests/${id}/authority/approve`, {});
      expect(early.status).toBe(409);
      expect(early.body).toMatchObject({ code: 'SVC-BE-1402', name: 'AUTHORITY_NOT_SUBMITTED', authorityStatus: null });
      expect((await api.post(`/requests/${id}/authority/submit`, { status: 'submitted' })).status).toBe(400);
      await ok(await api.post(`/requests/${id}/authority/submit`, AUTHORITY));
      expect((await api.get(`/requests/${id}`)).body.authority).toEqual(AUTHORITY);
      await ok(await api.post(`/requests/${id}/authority/approve`, {}));
      const approved = (await api.get(`/requests/${id}`)).body.authority;
      expect(approved).toMatchObject({ status: 'verified', verifiedAt: expect.any(String), evidenceArtifacts: AUTHORITY.evidenceArtifacts });
      const twice = await api.post(`/requests/${id}/authority/reject`, { reason: 'late' });
      expect(twice.status).toBe(409);
      expect(twice.body).toMatchObject({ code: 'SVC-BE-1402', authorityStatus: 'verified' });

      const other = await capture();
      await ok(await api.post(`/requests/${other}/authority/submit`, AUTHORITY));
      await ok(await api.post(`/requests/${other}/authority/reject`, { reason: 'The signature does not match.' }));
      expect((await api.get(`/requests/${other}`)).body.authority.status).toBe('rejected');
      const types = (await api.get(`/requests/${other}/timeline`)).body.events.map((e: { eventType: string }) => e.eventType);
      expect(types).toEqual(['request_created', 'request_authority_submitted', 'request_authority_rejected']);
    });
  });

  describe('appeals', () => {
    it('files (Wed 10 Jun 2026), lists and decides an appeal; approval reopens the request on the appeal clock (due Fri 10 Jul)', () =>
      getSystem().clock.runAt('2026-06-10T09:00:00Z', async () => {
        const id = await requestIn('refused');
        const filed = await ok(await api.as(KEYS.intakeA.token).post(`/requests/${id}/appeals`, { message: 'I was not given reasons.', grounds: 'Art 12(4)' }));
        expect(filed.body).toEqual({ appealId: expect.any(String), requestId: id, status: 'appeal_submitted' });
        const { appealId } = filed.body;

        const listed = await ok(await api.get(`/requests/${id}/appeals`), 200);
        // DE has no statutory appeal period: the request type's month from the appeal's receipt, end of day in Berlin.
        expect(listed.body).toEqual([
          {
            id: appealId,
            message: 'I was not given reasons.',
            grounds: 'Art 12(4)',
            status: 'appeal_submitted',
            createdAt: expect.stringMatching(/^2026-06-10T09:00/),
            dueAt: '2026-07-10T21:59:59.999Z',
          },
        ]);

        const second = await api.post(`/requests/${id}/appeals`, { message: 'Again.' });
        expect(second.status).toBe(409);
        expect(second.body).toMatchObject({ code: 'SVC-BE-1404', appealId });

        const decided = await ok(await api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'approve', explanation: 'Reasons were missing.' }));
        expect(decided.body).toEqual({ appealId, decision: 'approve', requestId: id, status: 'appeal_decided' });
        const detail = (await api.get(`/requests/${id}`)).body;
        expect(detail).toMatchObject({ status: 'in_progress', statusReason: null, dueAt: listed.body[0].dueAt });
        expect(detail.appeals).toEqual([expect.objectContaining({ id: appealId, status: 'appeal_decided', decision: 'approve', explanation: 'Reasons were missing.', decidedAt: expect.any(String) })]);
        const explained = (await api.get(`/requests/${id}/clock/explain`)).body;
        expect(explained.finalDueAt).toBe(detail.dueAt);
        expect(explained.clock.segments.at(-1)).toMatchObject({ reason: 'reopen', countsTowardDeadline: true });

        const again = await api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'deny' });
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({ code: 'SVC-BE-1403', decision: 'approve' });
        const types = (await api.get(`/requests/${id}/timeline`)).body.events.map((e: { eventType: string }) => e.eventType);
        expect(types.slice(-3)).toEqual(['request_appeal_submitted', 'request_appeal_decided', 'request_reopened']);
      }));

    it('US-VA: the appeal is due 60 days after it was filed (Mon 7 Sep 2026 -> Fri 6 Nov); a denial leaves the request as it was', () =>
      getSystem().clock.runAt('2026-09-07T15:00:00Z', async () => {
        const id = await capture('US-VA');
        await ok(await api.post(`/requests/${id}/refusals`, { ...REFUSAL, reason: 'exemption_applies' }));
        const { appealId } = (await ok(await api.post(`/requests/${id}/appeals`, { message: 'Please reconsider.' }))).body;
        const [appeal] = (await api.get(`/requests/${id}/appeals`)).body as unknown as Array<Record<string, string>>;
        expect(appeal.dueAt).toBe('2026-11-07T04:59:59.999Z');
        await ok(await api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'deny', explanation: 'The exemption applies.' }));
        expect((await api.get(`/requests/${id}`)).body).toMatchObject({ status: 'refused', statusReason: 'exemption_applies' });
        // A decided appeal leaves room for a new one.
        expect((await api.post(`/requests/${id}/appeals`, { message: 'New facts.' })).status).toBe(202);
      }));

    it('only client fields on creation: server-managed or unknown fields are a 400 and file nothing', async () => {
      const id = await requestIn('closed');
      for (const body of [
        {},
        { message: '' },
        { message: 'x', status: 'appeal_decided' },
        { message: 'x', id: randomUUID() },
        { message: 'x', decision: 'approve' },
        { message: 'x', createdAt: getSystem().clock.now().toISOString() },
      ]) {
        const res = await api.post(`/requests/${id}/appeals`, body);
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('SVC-BE-1102');
      }
      expect((await api.get(`/requests/${id}/appeals`)).body).toEqual([]);
    });

    it('decisions: a bad body is a 400, an unknown appeal a 404, an open request has nothing to appeal (409)', async () => {
      const id = await requestIn('fulfilled');
      const { appealId } = (await ok(await api.post(`/requests/${id}/appeals`, { message: 'Incomplete data.' }))).body;
      expect((await api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'maybe' })).status).toBe(400);
      expect((await api.post(`/requests/${id}/appeals/${appealId}/decide`, {})).status).toBe(400);
      expect((await api.post(`/requests/${id}/appeals/${randomUUID()}/decide`, { decision: 'deny' })).status).toBe(404);
      expect((await api.post(`/requests/${id}/appeals/not-a-uuid/decide`, { decision: 'deny' })).status).toBe(404);
      const partial = await ok(await api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'partial' }));
      expect(partial.body.decision).toBe('partial');
      expect((await api.get(`/requests/${id}`)).body.status).toBe('in_progress');
      const open = await api.post(`/requests/${id}/appeals`, { message: 'More.' });
      expect(open.status).toBe(409);
      expect(open.body).toMatchObject({ code: 'SVC-BE-1401', currentStatus: 'in_progress' });
    });

    it('another tenant sees no appeals and cannot file or decide one (404)', async () => {
      const id = await requestIn('refused');
      const { appealId } = (await ok(await api.post(`/requests/${id}/appeals`, { message: 'x' }))).body;
      const other = api.as(KEYS.operatorB.token);
      expect((await other.get(`/requests/${id}/appeals`)).status).toBe(404);
      expect((await other.post(`/requests/${id}/appeals`, { message: 'y' })).status).toBe(404);
      expect((await other.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'approve' })).status).toBe(404);
      expect((await api.as(KEYS.auditorA.token).post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'approve' })).status).toBe(403);
    });
  });

  describe('unknown requests and roles', () => {
    it.each([
      ['POST', '/acknowledgements', {}],
      ['POST', '/clarifications/request', { message: 'x' }],
      ['POST', '/clarifications/receive', {}],
      ['POST', '/refusals', REFUSAL],
      ['POST', '/closures', {}],
      ['PUT', '/requestor', { type: 'subject' }],
      ['POST', '/authority/submit', AUTHORITY],
      ['POST', '/authority/approve', {}],
      ['POST', '/authority/reject', {}],
      ['POST', '/appeals', { message: 'x' }],
      ['GET', '/appeals', undefined],
    ])('%s %s on an unknown request is a 404', async (method, path, json) => {
      for (const id of [randomUUID(), 'not-a-uuid']) {
        const res = await api.call(method, `/api/v1/requests/${id}${path}`, json === undefined ? {} : { json });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('SVC-BE-1003');
      }
    });

    it('the intake role cannot run workflow steps (403), and another tenant gets 404', async () => {
      const id = await capture();
      expect((await api.as(KEYS.intakeA.token).post(`/requests/${id}/refusals`, REFUSAL)).status).toBe(403);
      expect((await api.as(KEYS.operatorB.token).post(`/requests/${id}/refusals`, REFUSAL)).status).toBe(404);
      expect((await api.get(`/requests/${id}`)).body.status).toBe('received');
    });
  });

  describe('concurrency: conflicting commands on one request', () => {
    it('clarify and fulfil, three times each, at once on an in-progress request: one wins, the others get 409, the clock is consistent', async () => {
      const id = await requestIn('in_progress');
      // Each excludes the other and itself: a pending clarification cannot be fulfilled, a fulfilled request not clarified.
      const results = await Promise.all([
        ACTIONS.request_clarification(id),
        ACTIONS.fulfil(id),
        ACTIONS.request_clarification(id),
        ACTIONS.fulfil(id),
        ACTIONS.request_clarification(id),
        ACTIONS.fulfil(id),
      ]);
      const won = results.filter((r) => r.status === 202);
      expect(won).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 202)) expect(r.body.code).toBe('SVC-BE-1401');
      const detail = (await api.get(`/requests/${id}`)).body;
      expect(detail.status).toBe(won[0].body.status);
      const explained = (await api.get(`/requests/${id}/clock/explain`)).body;
      expect(explained.finalDueAt).toBe(detail.dueAt);
      expect(explained.pauses).toHaveLength(won[0].body.status === 'clarification_pending' ? 1 : 0);
      const steps = (await api.get(`/requests/${id}/timeline`)).body.events.filter((e: { payload: { fromStatus?: string } }) => e.payload.fromStatus === 'in_progress');
      expect(steps).toHaveLength(1);
    });

    it('refuse and fulfil at once, three times each: one outcome', async () => {
      const id = await requestIn('in_progress');
      const results = await Promise.all([ACTIONS.refuse(id), ACTIONS.fulfil(id), ACTIONS.refuse(id), ACTIONS.fulfil(id), ACTIONS.refuse(id), ACTIONS.fulfil(id)]);
      const won = results.filter((r) => r.status === 202);
      expect(won).toHaveLength(1);
      expect((await api.get(`/requests/${id}`)).body.status).toBe(won[0].body.status);
    });

    it('five acknowledgements at once: one is recorded', async () => {
      const id = await capture();
      const results = await Promise.all(Array.from({ length: 5 }, () => ACTIONS.acknowledge(id)));
      expect(results.map((r) => r.status).sort()).toEqual([202, 409, 409, 409, 409]);
      const acks = (await api.get(`/requests/${id}/timeline`)).body.events.filter((e: { eventType: string }) => e.eventType === 'request_acknowledged');
      expect(acks).toHaveLength(1);
    });

    it('approve and deny of one appeal at once: one decision stands', async () => {
      const id = await requestIn('refused');
      const { appealId } = (await ok(await ACTIONS.appeal(id))).body;
      const results = await Promise.all(['approve', 'deny', 'approve', 'deny'].map((decision) => api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision })));
      const won = results.filter((r) => r.status === 202);
      expect(won).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 202)) expect(r.body.code).toBe('SVC-BE-1403');
      const [appeal] = (await api.get(`/requests/${id}/appeals`)).body as unknown as Array<Record<string, string>>;
      expect(appeal.decision).toBe(won[0].body.decision);
      expect((await api.get(`/requests/${id}`)).body.status).toBe(won[0].body.decision === 'approve' ? 'in_progress' : 'refused');
    });
  });

  describe('the words of a step, by its event (internal, for the notifier)', () => {
    const ADMIN_A = `key:${createHash('sha256').update(KEYS.adminA.token).digest('hex').slice(0, 16)}`;

    it("a clarification request: its question, channel and statuses, for the request's tenant", async () => {
      const id = await capture();
      await ok(await api.post(`/requests/${id}/clarifications/request`, { message: 'Welches Ihrer Konten meinen Sie?', channel: 'email' }));
      const eventId = await eventIdOf(id, 'request_clarification_requested');
      const res = await transitionOf(id, eventId);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        eventId,
        action: 'request_clarification',
        fromStatus: 'received',
        toStatus: 'clarification_pending',
        actor: ADMIN_A,
        occurredAt: expect.stringMatching(/Z$/),
        details: { channel: 'email', message: 'Welches Ihrer Konten meinen Sie?' },
      });
    });

    it("another tenant, another workspace, an unknown event or another request's event: 404 RESOURCE_NOT_FOUND", async () => {
      const id = await capture();
      await ok(await ACTIONS.request_clarification(id));
      const eventId = await eventIdOf(id, 'request_clarification_requested');
      const other = await capture();
      const otherEvent = await eventIdOf(other, 'request_created');
      for (const [requestId, event, principal] of [
        [id, eventId, servicePrincipal(KEYS.operatorB.tenantId, 'service:notifier')],
        [id, eventId, { ...servicePrincipal(KEYS.adminA.tenantId, 'service:notifier'), workspaceId: 'north' }],
        [id, randomUUID(), undefined],
        [id, 'not-a-uuid', undefined],
        [id, otherEvent, undefined],
        [other, eventId, undefined],
        [randomUUID(), eventId, undefined],
      ] as const) {
        const res = await transitionOf(requestId, event, principal);
        expect({ status: res.status, code: res.body.code, name: res.body.name }).toEqual({ status: 404, code: 'SVC-BE-1003', name: 'RESOURCE_NOT_FOUND' });
      }
      // The step of the request's own creation is no workflow step either.
      expect((await transitionOf(id, await eventIdOf(id, 'request_created'))).status).toBe(404);
    });

    it('what the requester is told of a refusal (given or the default notice), a verification refusal and an appeal decision', async () => {
      const refused = await capture();
      await ok(await ACTIONS.refuse(refused));
      expect((await transitionOf(refused, await eventIdOf(refused, 'request_refused'))).body.details).toEqual({
        reason: 'manifestly_unfounded',
        message: REFUSAL.message,
        defaultMessage: false,
        rationale: REFUSAL.rationale,
      });

      const unverified = await requestIn('verification_pending');
      await ok(await ACTIONS.reject_verification(unverified));
      const notice = (await transitionOf(unverified, await eventIdOf(unverified, 'request_refused'))).body;
      expect(notice).toMatchObject({ action: 'reject_verification', toStatus: 'refused', details: { reason: 'identity_not_verified', defaultMessage: true, rationale: null } });
      expect(notice.details.message).toContain('could not verify your identity');
      expect(notice.details.message).toContain('right to lodge a complaint');

      const { appealId } = (await ok(await ACTIONS.appeal(refused))).body;
      await ok(await api.post(`/requests/${refused}/appeals/${appealId}/decide`, { decision: 'approve', explanation: 'Reasons were missing.' }));
      for (const eventType of ['request_appeal_decided', 'request_reopened']) {
        const decided = (await transitionOf(refused, await eventIdOf(refused, eventType))).body;
        expect(decided).toMatchObject({ action: 'decide_appeal', fromStatus: 'refused', toStatus: 'in_progress', details: { decision: 'approve', explanation: 'Reasons were missing.' } });
      }
    });

    it('LifecycleClient: transitionOf (null on 404) and queue, signed for the caller', async () => {
      const client = new LifecycleClient({ 'lifecycle-clock': getSystem().services.get('lifecycle-clock')!.url }, InternalAuthKey.from(getSystem().internalAuthKey));
      const notifier = servicePrincipal(KEYS.adminA.tenantId, 'service:notifier');
      const id = await capture();
      await ok(await ACTIONS.acknowledge(id));
      const eventId = await eventIdOf(id, 'request_acknowledged');
      expect(await client.transitionOf(notifier, id, eventId)).toMatchObject({ eventId, action: 'acknowledge', details: { channel: 'email', message: null } });
      expect(await client.transitionOf(servicePrincipal(KEYS.operatorB.tenantId, 'service:notifier'), id, eventId)).toBeNull();
      expect(await client.transitionOf(notifier, id, randomUUID())).toBeNull();

      const page = await client.queue(notifier, { status: 'in_progress', sortBy: 'updatedAt', sortOrder: 'desc', limit: 200 });
      expect(page).toMatchObject({ limit: 200, offset: 0, sortBy: 'updatedAt', sortOrder: 'desc', status: ['in_progress'] });
      expect(page.items.map((item) => item.id)).toContain(id);
      await expect(client.queue(notifier, { limit: 0 })).rejects.toMatchObject({ definition: { name: 'REQUEST_VALIDATION_FAILED' } });
    });
  });

  describe('the timeline', () => {
    it('shows every step of a request walked through the whole workflow, in order', async () => {
      const id = await capture('GB', getSystem().clock.daysAgo(4));
      await ok(await ACTIONS.acknowledge(id));
      await ok(await ACTIONS.request_clarification(id));
      await ok(await ACTIONS.receive_clarification(id));
      await ok(await ACTIONS.request_verification(id));
      await ok(await ACTIONS.reject_verification(id));
      expect((await api.get(`/requests/${id}`)).body).toMatchObject({ status: 'refused', statusReason: 'identity_not_verified' });
      const { appealId } = (await ok(await ACTIONS.appeal(id))).body;
      await ok(await api.post(`/requests/${id}/appeals/${appealId}/decide`, { decision: 'approve' }));
      await ok(await ACTIONS.fulfil(id));
      await ok(await ACTIONS.close(id));
      const events = (await api.get(`/requests/${id}/timeline`)).body.events as Array<{ eventType: string; payload: Record<string, unknown> }>;
      expect(events.map((e) => e.eventType)).toEqual([
        'request_created',
        'request_acknowledged',
        'request_clock_paused',
        'request_clarification_requested',
        'request_clock_resumed',
        'request_clarification_received',
        'request_clock_paused',
        'request_verification_requested',
        'request_refused',
        'request_appeal_submitted',
        'request_appeal_decided',
        'request_reopened',
        'request_fulfilled',
        'request_closed',
      ]);
      expect(events.filter((e) => e.payload.fromStatus).map((e) => `${e.payload.fromStatus}>${e.payload.status}`)).toEqual([
        'received>in_progress',
        'in_progress>clarification_pending',
        'clarification_pending>in_progress',
        'in_progress>verification_pending',
        'verification_pending>refused',
        'refused>refused',
        'refused>in_progress',
        'refused>in_progress',
        'in_progress>fulfilled',
        'fulfilled>closed',
      ]);
      expect(events.at(-1)!.payload).toMatchObject({ reason: 'completed' });
    });
  });
}
