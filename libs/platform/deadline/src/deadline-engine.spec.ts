import { type ClockMode, type RequestType, resolveJurisdiction } from '@dsar/contracts';
import { appealDecisionDueAt, type ClockEvent, computeClock, defaultExtension, isoDuration } from './index';
import { violationOf } from './deadline-test-kit';

/**
 * The clock engine on worked examples. Expected dates were counted by hand and
 * checked with GNU date; weekdays are noted where they decide the result.
 */
function clockOf(code: string, receivedAt: string, events: ClockEvent[] = [], requestType: RequestType = 'access', clockMode: ClockMode = 'receipt') {
  const found = resolveJurisdiction(code);
  if (!found) throw new Error(`no pack covers ${code}`);
  return computeClock({ pack: found.pack, binding: found.binding, requestType, clockMode, receivedAt: new Date(receivedAt), events });
}

const pause = (reason: 'verification' | 'clarification' | 'fee', at: string): ClockEvent => ({ kind: 'pause', reason, at: new Date(at), actor: 'key:operator' });
const resume = (at: string): ClockEvent => ({ kind: 'resume', at: new Date(at), actor: 'key:operator' });
const extension = (at: string, amount: { additionalDays?: number; additionalMonths?: number }, reason: string | null = 'complex request'): ClockEvent => ({
  kind: 'extension',
  at: new Date(at),
  actor: 'key:operator',
  justification: 'policy_extension',
  reason,
  ...amount,
});

describe('computeClock: the UK pauses (UK GDPR Art 12A, DPA 2018 s54)', () => {
  // Received Mon 1 Jun 2026 in London; the base month ends Wed 1 Jul.
  const received = '2026-06-01T09:00:00Z';

  it('without a pause the due date is the base deadline', () => {
    const clock = clockOf('GB', received);
    expect(clock.lastDay).toBe('2026-07-01');
    expect(clock.finalDueAt).toEqual(clock.baseDeadline);
    expect(clock.state).toBe('running');
  });

  it('clarification of an access request suspends: 3-8 June are 6 days that do not count -> Tue 7 Jul', () => {
    const clock = clockOf('GB', received, [pause('clarification', '2026-06-03T10:00:00Z'), resume('2026-06-08T15:00:00Z')]);
    expect(clock.lastDay).toBe('2026-07-07');
    expect(clock.pauses).toEqual([expect.objectContaining({ reason: 'clarification', rule: 'suspend', effect: 'suspended', excludedDays: 6 })]);
    expect(clock.segments.find((s) => s.reason === 'clarification')).toMatchObject({ countsTowardDeadline: false, rule: 'suspend' });
  });

  it('identity verification restarts the month from the day the identity arrives: 10 Jun -> Fri 10 Jul', () => {
    const clock = clockOf('GB', received, [pause('verification', '2026-06-01T10:00:00Z'), resume('2026-06-10T11:00:00Z')]);
    expect(clock.lastDay).toBe('2026-07-10');
    expect(clock.startedAt).toEqual(new Date('2026-06-10T11:00:00Z'));
    expect(clock.pauses[0]).toMatchObject({ effect: 'restarted' });
    // Adding the 10 paused days to 1 July would give 11 July: the restart is not a suspension.
    expect(clock.lastDay).not.toBe('2026-07-11');
    // The time before the restart no longer counts.
    expect(clock.segments[0]).toMatchObject({ reason: 'base', countsTowardDeadline: false });
    expect(clock.segments.at(-1)).toMatchObject({ reason: 'restart', countsTowardDeadline: true });
  });

  it('a fee restarts the month too', () => {
    expect(clockOf('GB', received, [pause('fee', '2026-06-02T10:00:00Z'), resume('2026-06-05T10:00:00Z')]).lastDay).toBe('2026-07-06'); // Sun 5 Jul -> Mon 6 Jul
  });

  it('clarification of a deletion request does not stop the clock (s54(3C) covers access)', () => {
    const clock = clockOf('GB', received, [pause('clarification', '2026-06-03T10:00:00Z'), resume('2026-06-08T15:00:00Z')], 'deletion');
    expect(clock.lastDay).toBe('2026-07-01');
    expect(clock.pauses[0]).toMatchObject({ rule: 'ignore', effect: 'ignored' });
  });

  it('while a pause is open the due date is the earliest it can be, and the clock says it is paused', () => {
    const clock = clockOf('GB', received, [pause('clarification', '2026-06-03T10:00:00Z')]);
    expect(clock.state).toBe('paused');
    expect(clock.pausedSince).toEqual(new Date('2026-06-03T10:00:00Z'));
    expect(clock.lastDay).toBe('2026-07-01');
    expect(clock.segments.at(-1)).toMatchObject({ reason: 'clarification', to: null });
  });

  it('the suspension also stretches the extension notice window', () => {
    const clock = clockOf('GB', received, [pause('clarification', '2026-06-03T10:00:00Z'), resume('2026-06-08T15:00:00Z')]);
    // The window (one month from 1 Jun, no roll) ends 1 Jul; 6 suspended days move it to 7 Jul.
    expect(clock.extensionNoticeDueAt).toEqual(new Date('2026-07-07T22:59:59.999Z'));
    // An extension notified on 5 Jul is in time only because of the suspension.
    const extended = clockOf('GB', received, [pause('clarification', '2026-06-03T10:00:00Z'), resume('2026-06-08T15:00:00Z'), extension('2026-07-05T10:00:00Z', { additionalMonths: 2 })]);
    // Three months from 1 Jun is 1 Sep, plus 6 suspended days: Mon 7 Sep 2026.
    expect(extended.lastDay).toBe('2026-09-07');
  });

  it('an open clarification pause stretches the notice window up to the day of the notice', () => {
    // Without the pause the window ends 1 Jul; the clarification asked on 3 Jun is still open on 5 Jul.
    const events = [pause('clarification', '2026-06-03T10:00:00Z'), extension('2026-07-05T10:00:00Z', { additionalMonths: 2 })];
    const clock = clockOf('GB', received, events);
    // Three months from 1 Jun: Tue 1 Sep; the open pause adds its days only when it ends.
    expect(clock.lastDay).toBe('2026-09-01');
    expect(violationOf(() => clockOf('GB', received, [extension('2026-07-05T10:00:00Z', { additionalMonths: 2 })]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
  });

  it('says when a request was received before its pack took effect (uk-gdpr: 5 Feb 2026)', () => {
    expect(clockOf('GB', '2026-01-31T11:00:00Z').steps.join('\n')).toContain('Received before uk-gdpr took effect (2026-02-05)');
    expect(clockOf('GB', received).steps.join('\n')).not.toContain('took effect');
  });

  it('clock mode active makes verification restart even where the pack would suspend', () => {
    const events = [pause('verification', '2026-03-02T10:00:00Z'), resume('2026-03-09T10:00:00Z')];
    // eu-gdpr suspends: 2-9 Mar is 8 days; 2 Apr + 8 = Fri 10 Apr, Easter Monday is 6 Apr so no roll needed.
    expect(clockOf('DE', '2026-03-02T09:00:00Z', events).lastDay).toBe('2026-04-10');
    // restart from 9 Mar: 9 Apr (Thu).
    expect(clockOf('DE', '2026-03-02T09:00:00Z', events, 'access', 'active').lastDay).toBe('2026-04-09');
  });
});

describe('computeClock: extensions', () => {
  it('GDPR: two further months added to the end of the first month (31 Jan -> 28 Feb -> Mon 28 Apr 2025)', () => {
    const clock = clockOf('EU', '2025-01-31T10:00:00Z', [extension('2025-02-10T10:00:00Z', { additionalMonths: 2 })]);
    expect(clock.lastDay).toBe('2025-04-28');
    expect(clock.extensions).toEqual([expect.objectContaining({ additionalMonths: 2, justification: 'policy_extension', previousDueAt: clock.baseDeadline, dueAt: clock.finalDueAt })]);
    expect(clock.segments.map((s) => s.reason)).toEqual(['base', 'extension']);
  });

  it('UK: three months from the original start date (31 Jan -> Wed 30 Apr 2025)', () => {
    expect(clockOf('GB', '2025-01-31T10:00:00Z', [extension('2025-02-10T10:00:00Z', { additionalMonths: 2 })]).lastDay).toBe('2025-04-30');
  });

  it('CCPA: 45 more days, 90 in all from receipt with the receipt day as day one (1 Mar -> Fri 29 May 2026)', () => {
    const clock = clockOf('US-CA', '2026-03-01T20:00:00Z', [extension('2026-04-01T18:00:00Z', { additionalDays: 45 })]);
    expect(clock.lastDay).toBe('2026-05-29');
  });

  it('a notice after the window has no effect: the extension is refused', () => {
    expect(violationOf(() => clockOf('US-CA', '2026-03-01T20:00:00Z', [extension('2026-04-15T18:00:00Z', { additionalDays: 45 })]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
    // 14 Apr is the 45th day and still inside.
    expect(clockOf('US-CA', '2026-03-01T20:00:00Z', [extension('2026-04-14T18:00:00Z', { additionalDays: 45 })]).lastDay).toBe('2026-05-29');
  });

  it('more than the maximum, or a second extension where one is allowed, is refused', () => {
    expect(violationOf(() => clockOf('US-CA', '2026-03-01T20:00:00Z', [extension('2026-03-10T18:00:00Z', { additionalDays: 46 })]))).toBe('EXTENSION_EXCEEDS_MAXIMUM');
    expect(violationOf(() => clockOf('EU', '2025-01-31T10:00:00Z', [extension('2025-02-01T10:00:00Z', { additionalMonths: 3 })]))).toBe('EXTENSION_EXCEEDS_MAXIMUM');
    expect(violationOf(() => clockOf('US-CA', '2026-03-01T20:00:00Z', [extension('2026-03-10T18:00:00Z', { additionalDays: 20 }), extension('2026-03-11T18:00:00Z', { additionalDays: 20 })]))).toBe(
      'EXTENSION_EXCEEDS_MAXIMUM',
    );
  });

  it('a pack without extensions, the wrong unit and a missing reason are refused', () => {
    expect(violationOf(() => clockOf('US-CA', '2026-03-01T20:00:00Z', [extension('2026-03-02T18:00:00Z', { additionalDays: 10 })], 'opt_out'))).toBe('EXTENSION_NOT_AVAILABLE');
    expect(violationOf(() => clockOf('EU', '2025-01-31T10:00:00Z', [extension('2025-02-01T10:00:00Z', { additionalDays: 30 })]))).toBe('EXTENSION_UNIT_MISMATCH');
    expect(violationOf(() => clockOf('EU', '2025-01-31T10:00:00Z', [extension('2025-02-01T10:00:00Z', { additionalMonths: 2 }, null)]))).toBe('EXTENSION_REASON_REQUIRED');
  });

  it('without an amount, an extension takes what is left of the maximum', () => {
    const found = resolveJurisdiction('US-CA')!;
    const input = { pack: found.pack, binding: found.binding, requestType: 'access' as const, clockMode: 'receipt' as const, receivedAt: new Date('2026-03-01T20:00:00Z'), events: [] };
    expect(defaultExtension(input)).toEqual({ additionalDays: 45 });
    expect(defaultExtension({ ...clockInputOf('EU') })).toEqual({ additionalMonths: 2 });
  });
});

function clockInputOf(code: string) {
  const found = resolveJurisdiction(code)!;
  return { pack: found.pack, binding: found.binding, requestType: 'access' as const, clockMode: 'receipt' as const, receivedAt: new Date('2026-03-01T20:00:00Z'), events: [] };
}

describe('computeClock: CCPA verification does not stop the clock (11 CCR 7021(b))', () => {
  it('a verification pause of three weeks leaves the 45 days unchanged, and its segment counts', () => {
    const clock = clockOf('US-CA', '2026-03-01T20:00:00Z', [pause('verification', '2026-03-02T18:00:00Z'), resume('2026-03-23T18:00:00Z')]);
    expect(clock.lastDay).toBe('2026-04-14');
    expect(clock.pauses[0]).toMatchObject({ rule: 'ignore', effect: 'ignored', excludedDays: 0 });
    expect(clock.segments.find((s) => s.reason === 'verification')).toMatchObject({ countsTowardDeadline: true });
  });

  it('while the verification pause is open the clock says running, in its state and in its words', () => {
    const clock = clockOf('US-CA', '2026-03-01T20:00:00Z', [pause('verification', '2026-03-02T18:00:00Z')]);
    expect(clock.state).toBe('running');
    // The pause is still open and must be resumed, so when it began stays known.
    expect(clock.pausedSince).toEqual(new Date('2026-03-02T18:00:00Z'));
    expect(clock.pauses[0]).toMatchObject({ rule: 'ignore', effect: 'pending', to: null });
    expect(clock.segments.at(-1)).toMatchObject({ reason: 'verification', to: null, countsTowardDeadline: true });
    const words = clock.steps.join('\n');
    expect(words).toMatch(/the clock keeps running/);
    expect(words).not.toMatch(/clock is paused|earliest it can be|moves when the pause ends/);
  });

  it('gives the 10-business-day acknowledgement deadline (Mon 2 Mar 2026 -> Mon 16 Mar)', () => {
    expect(clockOf('US-CA', '2026-03-02T18:00:00Z').acknowledgementDueAt).toEqual(new Date('2026-03-17T06:59:59.999Z'));
  });
});

describe('computeClock: order and pause rules', () => {
  it('refuses a resume without a pause, a second pause, and events out of order', () => {
    expect(violationOf(() => clockOf('GB', '2026-06-01T09:00:00Z', [resume('2026-06-02T09:00:00Z')]))).toBe('CLOCK_NOT_PAUSED');
    expect(violationOf(() => clockOf('GB', '2026-06-01T09:00:00Z', [pause('fee', '2026-06-02T09:00:00Z'), pause('verification', '2026-06-03T09:00:00Z')]))).toBe('CLOCK_ALREADY_PAUSED');
    expect(violationOf(() => clockOf('GB', '2026-06-01T09:00:00Z', [pause('fee', '2026-05-31T09:00:00Z')]))).toBe('CLOCK_EVENT_OUT_OF_ORDER');
  });

  it('a pause that starts after the deadline cannot revive it', () => {
    const clock = clockOf('GB', '2026-06-01T09:00:00Z', [pause('verification', '2026-07-03T09:00:00Z'), resume('2026-07-10T09:00:00Z')]);
    expect(clock.lastDay).toBe('2026-07-01');
    expect(clock.pauses[0].effect).toBe('after_deadline');
  });

  it('a pause open since after the deadline leaves the clock running', () => {
    const clock = clockOf('GB', '2026-06-01T09:00:00Z', [pause('verification', '2026-07-03T09:00:00Z')]);
    expect(clock.state).toBe('running');
    expect(clock.steps.join('\n')).not.toMatch(/clock is paused/);
  });

  it('explains every step in words', () => {
    const clock = clockOf('GB', '2026-06-01T09:00:00Z', [pause('clarification', '2026-06-03T10:00:00Z'), resume('2026-06-08T15:00:00Z')]);
    expect(clock.steps.join('\n')).toMatch(/Base period: 1 month/);
    expect(clock.steps.join('\n')).toMatch(/6 day\(s\) do not count/);
    expect(clock.steps.at(-1)).toContain(clock.finalDueAt.toISOString());
  });

  it('reports pause durations as ISO 8601', () => {
    expect(isoDuration(new Date('2026-06-03T10:00:00Z'), new Date('2026-06-08T15:30:00Z'))).toBe('P5DT5H30M');
  });
});

describe('computeClock: a request reopened on appeal runs on the appeal clock', () => {
  const reopen = (at: string): ClockEvent => ({ kind: 'reopen', at: new Date(at), actor: 'key:operator' });

  it('US-VA: the 60-day appeal period from the reopening day (Mon 4 May 2026 -> Fri 3 Jul), and the appeal rule allows no extension', () => {
    const events = [extension('2026-01-20T15:00:00Z', { additionalDays: 45 }), reopen('2026-05-04T15:00:00Z')];
    const clock = clockOf('US-VA', '2026-01-05T15:00:00Z', events);
    expect(clock.lastDay).toBe('2026-07-03');
    expect(clock.finalDueAt).toEqual(new Date('2026-07-04T03:59:59.999Z'));
    expect(clock.startedAt).toEqual(new Date('2026-05-04T15:00:00Z'));
    expect(clock.rule).toMatchObject({ period: { amount: 60, unit: 'calendar_days' }, extension: null, acknowledgement: null });
    expect(clock.extensionNoticeDueAt).toBeNull();
    expect(clock.segments.filter((s) => s.countsTowardDeadline).map((s) => s.reason)).toEqual(['reopen']);
    expect(violationOf(() => clockOf('US-VA', '2026-01-05T15:00:00Z', [...events, extension('2026-05-05T15:00:00Z', { additionalDays: 10 })]))).toBe('EXTENSION_NOT_AVAILABLE');
  });

  it('US-CO: 45 days (Thu 18 Jun), and the appeal extension of 60 more days counted from the reopening (Mon 17 Aug)', () => {
    const events = [reopen('2026-05-04T15:00:00Z')];
    expect(clockOf('US-CO', '2026-01-05T15:00:00Z', events).lastDay).toBe('2026-06-18');
    const extended = clockOf('US-CO', '2026-01-05T15:00:00Z', [...events, extension('2026-05-10T15:00:00Z', { additionalDays: 60 })]);
    expect(extended.lastDay).toBe('2026-08-17');
    expect(defaultExtension({ ...inputOf('US-CO', '2026-01-05T15:00:00Z'), events })).toEqual({ additionalDays: 60 });
  });

  it("EU (DE) has no appeal period: the request type's month runs again from Wed 10 Jun -> Fri 10 Jul, and its extension is available again", () => {
    const events = [extension('2026-03-20T10:00:00Z', { additionalMonths: 2 }), reopen('2026-06-10T10:00:00Z')];
    const clock = clockOf('DE', '2026-03-03T10:00:00Z', events);
    expect(clock.lastDay).toBe('2026-07-10');
    expect(clock.rule.basis).toBe('service_target');
    expect(clock.extensionUsed).toEqual({ days: 0, months: 0, count: 0 });
    expect(clockOf('DE', '2026-03-03T10:00:00Z', [...events, extension('2026-06-20T10:00:00Z', { additionalMonths: 2 })]).lastDay).toBe('2026-09-10');
  });

  it('a reopening ends a pause left open when the request closed', () => {
    const clock = clockOf('GB', '2026-06-01T09:00:00Z', [pause('verification', '2026-06-02T09:00:00Z'), reopen('2026-06-20T09:00:00Z')]);
    expect(clock.state).toBe('running');
    expect(clock.pauses).toEqual([expect.objectContaining({ reason: 'verification', to: new Date('2026-06-20T09:00:00Z') })]);
    expect(clock.lastDay).toBe('2026-07-20'); // Sat 20 Jun + 1 month = Mon 20 Jul
  });

  it('an appeal is due on the appeal clock from its receipt: US-VA 60 days, DE the month of its requests', () => {
    expect(appealDecisionDueAt(inputOf('US-VA', '2026-01-05T15:00:00Z'), new Date('2026-05-04T15:00:00Z'))).toEqual(new Date('2026-07-04T03:59:59.999Z'));
    expect(appealDecisionDueAt(inputOf('DE', '2026-03-03T10:00:00Z'), new Date('2026-06-10T10:00:00Z'))).toEqual(new Date('2026-07-10T21:59:59.999Z'));
  });
});

function inputOf(code: string, receivedAt: string) {
  const found = resolveJurisdiction(code)!;
  return { pack: found.pack, binding: found.binding, requestType: 'access' as RequestType, clockMode: 'receipt' as ClockMode, receivedAt: new Date(receivedAt), events: [] as ClockEvent[] };
}
