import { DateTime } from 'luxon';
import type { TestSystem } from './systems';
import { ApiClient, intake, ownPerson } from './api-client';
import { KEYS } from './gateway-intake.scenarios';

/** The end of a local day, in UTC, as the API reports deadlines. */
function endOfLocalDay(day: string, zone: string): string {
  return DateTime.fromISO(day, { zone }).plus({ days: 1 }).minus({ milliseconds: 1 }).toUTC().toISO()!;
}

/** The local day `days` after the local day of an instant. */
function localDayPlus(instant: string, zone: string, days: number): string {
  return DateTime.fromISO(instant).setZone(zone).startOf('day').plus({ days }).toISODate()!;
}

/**
 * Base deadlines through the REST API, per jurisdiction: every expected last
 * day was counted by hand from the rules in docs/clock.md and checked with GNU date.
 */
const BASE_CASES: Array<[title: string, jurisdiction: string, requestType: string, receivedAt: string, lastDay: string, zone: string]> = [
  ['GB (ICO): received on a bank holiday, 1 Jan 2024 -> Thu 1 Feb', 'GB', 'access', '2024-01-01T11:00:00Z', '2024-02-01', 'Europe/London'],
  ['GB (ICO): Mon 25 Nov 2024 -> Fri 27 Dec (25 and 26 Dec are bank holidays)', 'GB', 'access', '2024-11-25T11:00:00Z', '2024-12-27', 'Europe/London'],
  ['GB (ICO): 31 Jan 2025 -> Fri 28 Feb', 'GB', 'access', '2025-01-31T11:00:00Z', '2025-02-28', 'Europe/London'],
  ['GB (ICO): 31 Jan 2024 -> Thu 29 Feb in a leap year', 'GB', 'access', '2024-01-31T11:00:00Z', '2024-02-29', 'Europe/London'],
  ['GB (ICO): 31 Jan 2026 -> Sat 28 Feb -> Mon 2 Mar', 'GB', 'access', '2026-01-31T11:00:00Z', '2026-03-02', 'Europe/London'],
  ['GB (ICO): 3 Sep 2025 -> Fri 3 Oct', 'GB', 'access', '2025-09-03T11:00:00Z', '2025-10-03', 'Europe/London'],
  ['GB (ICO): 31 Mar 2025 -> Wed 30 Apr', 'GB', 'access', '2025-03-31T11:00:00Z', '2025-04-30', 'Europe/London'],
  ['DE: Good Friday and Easter Monday 2026 roll 3 Apr to Tue 7 Apr', 'DE', 'access', '2026-03-03T10:00:00Z', '2026-04-07', 'Europe/Berlin'],
  ['US-CA: 45 days with the receipt day as day one, 1 Mar 2026 -> Tue 14 Apr', 'US-CA', 'access', '2026-03-01T20:00:00Z', '2026-04-14', 'America/Los_Angeles'],
  ['US-CA: opt-out in 15 business days, Mon 16 Nov 2026 -> Wed 9 Dec (Thanksgiving and the day after skipped)', 'US-CA', 'opt_out', '2026-11-16T20:00:00Z', '2026-12-09', 'America/Los_Angeles'],
];

/**
 * Issue [clock] end to end through the gateway: explanations, pauses,
 * extensions and their errors; the same scenarios run in embedded mode and
 * against PostgreSQL and Kafka.
 */
export function clockScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  beforeAll(() => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
  });

  /** A request of a person of its own: one person's would be marked as duplicates, with the mark on their timelines. */
  async function capture(jurisdiction: string, requestType: string, receivedAt: string, extra: Record<string, unknown> = {}): Promise<{ id: string; dueAt: string }> {
    const { requestor, contact } = ownPerson();
    const created = await api.post('/requests/capture', intake({ jurisdiction, requestType, requestor, ...extra }, { receivedAt, contact }));
    expect(created.status).toBe(202);
    return created.body as { id: string; dueAt: string };
  }

  describe('base deadlines per jurisdiction', () => {
    it.each(BASE_CASES)('%s', async (_title, jurisdiction, requestType, receivedAt, lastDay, zone) => {
      const { id, dueAt } = await capture(jurisdiction, requestType, receivedAt);
      expect(dueAt).toBe(endOfLocalDay(lastDay, zone));
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.status).toBe(200);
      expect(explained.body).toMatchObject({ requestId: id, baseDeadline: dueAt, finalDueAt: dueAt, clock: { dueAt, lastDay, timeZone: zone, receivedAt: new Date(receivedAt).toISOString() } });
    });
  });

  describe('the explanation', () => {
    it('has every field of the spec, and dueAt on the detail and the queue comes from the same engine', async () => {
      const { id } = await capture('DE', 'access', '2026-03-03T10:00:00Z');
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.status).toBe(200);
      const body = explained.body;
      expect(body).toMatchObject({
        requestId: id,
        policyPack: 'eu-gdpr',
        policyVersion: '1.0.0',
        extensions: [],
        pauses: [],
        clock: { clockMode: 'receipt', state: 'running', receivedAt: '2026-03-03T10:00:00.000Z' },
      });
      // Base until the period's last day (Fri 3 Apr, Good Friday), then the roll to Tue 7 Apr.
      expect(body.clock.segments).toEqual([
        { actor: 'system', countsTowardDeadline: true, from: '2026-03-03T10:00:00.000Z', to: '2026-04-03T21:59:59.999Z', policyVersion: '1.0.0', reason: 'base' },
        { actor: 'system', countsTowardDeadline: true, from: '2026-04-03T21:59:59.999Z', to: '2026-04-07T21:59:59.999Z', policyVersion: '1.0.0', reason: 'roll' },
      ]);
      expect(body.rule.period).toEqual({ amount: 1, unit: 'months', countReceiptDay: false, roll: 'saturday_sunday_holiday' });
      expect(body.steps.join('\n')).toContain('the last day rolls to Tue 7 Apr 2026');
      const detail = await api.get(`/requests/${id}`);
      expect(detail.body.dueAt).toBe(body.finalDueAt);
    });

    it('gives the CCPA acknowledgement deadline: 10 business days', async () => {
      const { id } = await capture('US-CA', 'access', '2026-03-02T18:00:00Z');
      const explained = await api.get(`/requests/${id}/clock/explain`);
      // Mon 2 Mar 2026 + 10 business days = Mon 16 Mar, end of day in Los Angeles (PDT).
      expect(explained.body.deadlines.acknowledgementDueAt).toBe('2026-03-17T06:59:59.999Z');
      expect(explained.body.deadlines.refusalNoticeDueAt).toBe(explained.body.finalDueAt);
    });

    it("answers 404 for an unknown request and for another tenant's", async () => {
      const { id } = await capture('DE', 'access', '2026-03-03T10:00:00Z');
      expect((await api.get('/requests/7d0e4c1a-5f7b-4c39-9d0a-2b1f3c4d5e6f/clock/explain')).status).toBe(404);
      const other = await api.as(KEYS.operatorB.token).get(`/requests/${id}/clock/explain`);
      expect(other.status).toBe(404);
      expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });
  });

  describe('pauses follow the pack', () => {
    it('UK clarification of an access request suspends: 3-8 June 2026 do not count -> Tue 7 Jul', async () => {
      const { id } = await capture('GB', 'access', '2026-06-01T09:00:00Z');
      const paused = await api.post(`/requests/${id}/clock/pauses`, { reason: 'clarification', at: '2026-06-03T10:00:00Z', note: 'asked which account' });
      expect(paused.status).toBe(202);
      expect(paused.body).toMatchObject({ id, clockState: 'paused', dueAt: endOfLocalDay('2026-07-01', 'Europe/London') });
      const resumed = await api.post(`/requests/${id}/clock/resume`, { at: '2026-06-08T15:00:00Z' });
      expect(resumed.status).toBe(202);
      expect(resumed.body).toMatchObject({
        id,
        status: 'received',
        clockState: 'running',
        previousDueAt: endOfLocalDay('2026-07-01', 'Europe/London'),
        dueAt: endOfLocalDay('2026-07-07', 'Europe/London'),
      });
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.pauses).toEqual([
        expect.objectContaining({ duration: 'P5DT5H', reason: 'clarification', rule: 'suspend', effect: 'suspended', excludedDays: 6, note: 'asked which account', resumeNote: null }),
      ]);
      expect(explained.body.clock.segments.map((s: { reason: string; countsTowardDeadline: boolean }) => [s.reason, s.countsTowardDeadline])).toEqual([
        ['base', true],
        ['clarification', false],
        ['resumed', true],
      ]);
      expect((await api.get(`/requests/${id}`)).body.dueAt).toBe(endOfLocalDay('2026-07-07', 'Europe/London'));
    });

    it('UK identity verification restarts the month from the day the identity arrives: 10 Jun -> Fri 10 Jul', async () => {
      const { id } = await capture('GB', 'access', '2026-06-01T09:00:00Z');
      expect((await api.post(`/requests/${id}/clock/pauses`, { reason: 'verification', at: '2026-06-01T10:00:00Z' })).status).toBe(202);
      const resumed = await api.post(`/requests/${id}/clock/resume`, { at: '2026-06-10T11:00:00Z' });
      expect(resumed.body.dueAt).toBe(endOfLocalDay('2026-07-10', 'Europe/London'));
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.pauses[0]).toMatchObject({ rule: 'restart', effect: 'restarted' });
      expect(explained.body.clock.startedAt).toBe('2026-06-10T11:00:00.000Z');
      expect(explained.body.baseDeadline).toBe(endOfLocalDay('2026-07-01', 'Europe/London'));
    });

    it('CCPA: three weeks of verification do not stop the 45 days', async () => {
      const receivedAt = getSystem().clock.daysAgo(25);
      const { id, dueAt } = await capture('US-CA', 'access', receivedAt);
      await api.post(`/requests/${id}/clock/pauses`, { reason: 'verification', at: getSystem().clock.daysAgo(24) });
      const resumed = await api.post(`/requests/${id}/clock/resume`, { at: getSystem().clock.daysAgo(3) });
      expect(resumed.status).toBe(202);
      expect(resumed.body.dueAt).toBe(dueAt);
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.pauses[0]).toMatchObject({ reason: 'verification', rule: 'ignore', effect: 'ignored', excludedDays: 0 });
    });

    it('CCPA: a request under verification says its clock is running, in its state and in its words', async () => {
      const { id, dueAt } = await capture('US-CA', 'access', getSystem().clock.daysAgo(2));
      expect((await api.post(`/requests/${id}/verification/request`, { method: 'document' })).status).toBe(202);
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.status).toBe(200);
      expect(explained.body.pauses).toEqual([expect.objectContaining({ reason: 'verification', rule: 'ignore', effect: 'pending', to: null })]);
      expect(explained.body.clock).toMatchObject({ state: 'running', dueAt });
      expect(explained.body.clock.pausedSince).not.toBeNull();
      expect(explained.body.steps.join('\n')).toMatch(/the clock keeps running/);
      expect(explained.body.steps.join('\n')).not.toMatch(/clock is paused|earliest it can be/);
    });

    it('refuses a second pause (409), a resume without a pause (409) and times out of order (422)', async () => {
      const { id } = await capture('GB', 'access', '2026-06-01T09:00:00Z');
      const notPaused = await api.post(`/requests/${id}/clock/resume`, {});
      expect(notPaused.status).toBe(409);
      expect(notPaused.body.code).toBe('SVC-BE-1507');
      const beforeReceipt = await api.post(`/requests/${id}/clock/pauses`, { reason: 'fee', at: '2026-05-31T09:00:00Z' });
      expect(beforeReceipt.status).toBe(422);
      expect(beforeReceipt.body.code).toBe('SVC-BE-1508');
      const future = await api.post(`/requests/${id}/clock/pauses`, { reason: 'fee', at: getSystem().clock.later(3_600_000) });
      expect(future.status).toBe(422);
      expect(future.body.code).toBe('SVC-BE-1508');
      expect((await api.post(`/requests/${id}/clock/pauses`, { reason: 'fee', at: '2026-06-02T09:00:00Z' })).status).toBe(202);
      const again = await api.post(`/requests/${id}/clock/pauses`, { reason: 'verification' });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'SVC-BE-1506', pauseReason: 'fee' });
      // None of the refused calls changed the clock: one pause, still open.
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.pauses).toHaveLength(1);
      expect(explained.body.clock.state).toBe('paused');
    });

    it('rejects a bad pause body with 400 naming the fields', async () => {
      const { id } = await capture('GB', 'access', '2026-06-01T09:00:00Z');
      const bad = await api.post(`/requests/${id}/clock/pauses`, { reason: 'holiday', at: 'yesterday', extra: 1 });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['at', 'extra', 'reason']);
    });
  });

  describe('extensions', () => {
    it('CCPA: 45 more days, 90 from receipt, notified to the requester through an event on the timeline', async () => {
      const receivedAt = getSystem().clock.daysAgo(10);
      const { id, dueAt } = await capture('US-CA', 'access', receivedAt);
      const extended = await api.post(`/requests/${id}/extensions`, { reason: 'We need to search archived systems.' });
      expect(extended.status).toBe(202);
      const expected = endOfLocalDay(localDayPlus(receivedAt, 'America/Los_Angeles', 89), 'America/Los_Angeles');
      expect(extended.body).toMatchObject({ id, status: 'received', previousDueAt: dueAt, dueAt: expected });
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.extensions).toEqual([
        expect.objectContaining({ additionalDays: 45, justification: 'policy_extension', reason: 'We need to search archived systems.', previousDueAt: dueAt, dueAt: expected }),
      ]);
      expect(explained.body.deadlines.extensionNoticeDueAt).toBeNull();
      const queue = await api.get('/requests?sortBy=dueAt&sortOrder=desc&limit=200');
      expect(queue.body.items.find((i: { id: string }) => i.id === id).dueAt).toBe(expected);
      const timeline = await api.get(`/requests/${id}/timeline`);
      expect(timeline.body.events.map((e: { eventType: string }) => e.eventType)).toEqual(['request_created', 'request_deadline_extended']);
      // The reasons travel to the notifier in the event; the timeline (the audit chain) keeps only their salted hash.
      expect(timeline.body.events[1].payload).toMatchObject({ additionalDays: 45, previousDueAt: dueAt, dueAt: expected, reason: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/) });

      const second = await api.post(`/requests/${id}/extensions`, { additionalDays: 5, reason: 'more' });
      expect(second.status).toBe(422);
      expect(second.body.code).toBe('SVC-BE-1504');
    });

    // EU without a Member State: Europe/Brussels, weekends only. Received Wed 3 Jun 2026, due Fri 3 Jul; extended on
    // Mon 8 Jun by two months added to the end of the first (period_end): Thu 3 Sep.
    it('GDPR: two further months (Fri 3 Jul -> Thu 3 Sep 2026); days are refused for a pack that extends in months; reasons are required', () =>
      getSystem().clock.runAt('2026-06-08T10:00:00Z', async () => {
        const { id, dueAt } = await capture('EU', 'access', '2026-06-03T09:00:00Z');
        expect(dueAt).toBe('2026-07-03T21:59:59.999Z');
        const inDays = await api.post(`/requests/${id}/extensions`, { additionalDays: 30, reason: 'complex' });
        // Well-formed bodies the pack does not accept: its rules, 422 naming the field to give.
        expect(inDays.status).toBe(422);
        expect(inDays.body).toMatchObject({ code: 'SVC-BE-1509', errors: [expect.objectContaining({ field: 'additionalMonths' })] });
        const noReason = await api.post(`/requests/${id}/extensions`, { additionalMonths: 2 });
        expect(noReason.status).toBe(422);
        expect(noReason.body).toMatchObject({ code: 'SVC-BE-1509', errors: [expect.objectContaining({ field: 'reason' })] });
        const both = await api.post(`/requests/${id}/extensions`, { additionalMonths: 1, additionalDays: 1, reason: 'x' });
        expect(both.status).toBe(400);
        const tooMuch = await api.post(`/requests/${id}/extensions`, { additionalMonths: 3, reason: 'complex' });
        expect(tooMuch.status).toBe(422);
        expect(tooMuch.body).toMatchObject({ code: 'SVC-BE-1504', maximum: { amount: 2, unit: 'months' } });
        const extended = await api.post(`/requests/${id}/extensions`, { additionalMonths: 2, reason: 'Many requests at once.', justification: 'number_of_requests' });
        expect(extended.status).toBe(202);
        expect(extended.body.dueAt).toBe('2026-09-03T21:59:59.999Z');
        const explained = await api.get(`/requests/${id}/clock/explain`);
        expect(explained.body.extensions[0]).toMatchObject({ additionalMonths: 2, justification: 'number_of_requests', previousDueAt: dueAt, dueAt: '2026-09-03T21:59:59.999Z' });
      }));

    it('past the notice window: 409 with its own code; a pack without extensions: 422', async () => {
      const late = await capture('US-CA', 'access', getSystem().clock.daysAgo(50));
      const tooLate = await api.post(`/requests/${late.id}/extensions`, { reason: 'complex' });
      expect(tooLate.status).toBe(409);
      expect(tooLate.body.code).toBe('SVC-BE-1505');
      expect(tooLate.body.noticeDueAt).toEqual(expect.any(String));
      const optOut = await capture('US-CA', 'opt_out', getSystem().clock.daysAgo(1));
      const none = await api.post(`/requests/${optOut.id}/extensions`, { reason: 'complex' });
      expect(none.status).toBe(422);
      expect(none.body.code).toBe('SVC-BE-1503');
      // Neither changed the due date.
      expect((await api.get(`/requests/${late.id}`)).body.dueAt).toBe(late.dueAt);
    });

    it('a retried extension with the same Idempotency-Key extends once', async () => {
      const { id } = await capture('US-CA', 'access', getSystem().clock.daysAgo(2));
      const headers = { 'idempotency-key': `extend-${id}` };
      const first = await api.post(`/requests/${id}/extensions`, { reason: 'complex' }, { headers });
      const replay = await api.post(`/requests/${id}/extensions`, { reason: 'complex' }, { headers });
      expect(first.status).toBe(202);
      expect(replay.status).toBe(202);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
      expect((await api.get(`/requests/${id}/clock/explain`)).body.extensions).toHaveLength(1);
    });

    it('five conflicting extensions at once: exactly one is granted, and the clock shows one', async () => {
      const { id } = await capture('US-CA', 'access', getSystem().clock.daysAgo(3));
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => api.post(`/requests/${id}/extensions`, { additionalDays: 30 + i, reason: 'complex' })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([202, 422, 422, 422, 422]);
      expect(answers.filter((a) => a.status === 422).every((a) => a.body.code === 'SVC-BE-1504')).toBe(true);
      const winner = answers.find((a) => a.status === 202)!;
      const explained = await api.get(`/requests/${id}/clock/explain`);
      expect(explained.body.extensions).toHaveLength(1);
      expect(explained.body.finalDueAt).toBe(winner.body.dueAt);
      expect((await api.get(`/requests/${id}`)).body.dueAt).toBe(winner.body.dueAt);
    });

    it('two pauses at once: one wins, the other is told the clock is already paused', async () => {
      const { id } = await capture('GB', 'access', getSystem().clock.daysAgo(3));
      const answers = await Promise.all([api.post(`/requests/${id}/clock/pauses`, { reason: 'fee' }), api.post(`/requests/${id}/clock/pauses`, { reason: 'verification' })]);
      expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
      expect(answers.find((a) => a.status === 409)!.body.code).toBe('SVC-BE-1506');
      expect((await api.get(`/requests/${id}/clock/explain`)).body.pauses).toHaveLength(1);
    });

    it('only callers who may act on requests can extend (auditor: 403)', async () => {
      const { id } = await capture('US-CA', 'access', getSystem().clock.daysAgo(2));
      const denied = await api.as(KEYS.auditorA.token).post(`/requests/${id}/extensions`, { reason: 'complex' });
      expect(denied.status).toBe(403);
      expect((await api.as(KEYS.auditorA.token).get(`/requests/${id}/clock/explain`)).status).toBe(200);
    });
  });

  describe('clock mode', () => {
    it('a tenant may choose `active` only where the pack allows it', async () => {
      const refused = await api.post('/requests', intake({ jurisdiction: 'US-CA', clockMode: 'active' }));
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'SVC-BE-1502', allowed: ['receipt'] });
      const accepted = await api.post('/requests', intake({ jurisdiction: 'GB', clockMode: 'active' }));
      expect(accepted.status).toBe(202);
      expect((await api.get(`/requests/${accepted.body.id}`)).body.clockMode).toBe('active');
    });
  });
}
