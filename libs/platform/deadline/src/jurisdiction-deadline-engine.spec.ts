import { DateTime } from 'luxon';
import { type ClockMode, type PauseReason, type PauseRule, type RequestType, resolveJurisdiction } from '@dsar/contracts';
import { appealDueAt, type ClockEvent, type ClockResult, ClockRuleError, computeClock, defaultExtension } from './index';
import { violationOf } from './deadline-test-kit';

/**
 * The clock of every built-in pack beyond its base deadline: extensions (the
 * extended last day, the notice window, the cap, the count, the reason), what
 * each pause reason does, appeal and acknowledgement deadlines, and the UK
 * calendars under a pause. One describe per pack; the base deadlines
 * themselves are in jurisdictions.spec.ts.
 *
 * Every expected date was counted by hand and checked with GNU date
 * (`date -d '2026-04-14 +90 days' '+%F %a'`, `date -d '2026-02-28 +3 months'`),
 * public holidays with date-holidays' own list of `public` days
 * (`new H('US', 'CO').getHolidays(2027)`). Events are at 12:00 UTC, which is the
 * same local date in every zone used (UTC-8 to UTC+11). A deadline is the last
 * millisecond of its last local day.
 */

type Amount = { additionalDays: number } | { additionalMonths: number };

function resolved(code: string) {
  const found = resolveJurisdiction(code);
  if (!found) throw new Error(`no built-in pack covers ${code}`);
  return found;
}

function clockOf(code: string, receivedAt: string, events: ClockEvent[] = [], requestType: RequestType = 'access', clockMode: ClockMode = 'receipt'): ClockResult {
  const { pack, binding } = resolved(code);
  return computeClock({ pack, binding, requestType, clockMode, receivedAt: new Date(receivedAt), events });
}

/** Mid-day UTC on a date: the same local date everywhere these tests count. */
const noon = (day: string) => `${day}T12:00:00Z`;
const pause = (reason: PauseReason, day: string): ClockEvent => ({ kind: 'pause', reason, at: new Date(noon(day)), actor: 'key:operator' });
const resume = (day: string): ClockEvent => ({ kind: 'resume', at: new Date(noon(day)), actor: 'key:operator' });
const extension = (day: string, amount: Amount, reason: string | null = 'complex request'): ClockEvent => ({
  kind: 'extension',
  at: new Date(noon(day)),
  actor: 'key:operator',
  justification: 'policy_extension',
  reason,
  ...amount,
});

/** The local day and time of an instant in the binding's zone. */
function localOf(code: string, at: Date | null): string | null {
  if (!at) return null;
  return DateTime.fromJSDate(at, { zone: resolved(code).binding.timeZone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS");
}

const endOf = (day: string) => `${day}T23:59:59.999`;

function expectLastDay(code: string, clock: ClockResult, lastDay: string): void {
  expect(clock.lastDay).toBe(lastDay);
  expect(localOf(code, clock.finalDueAt)).toBe(endOf(lastDay));
}

// ---------------------------------------------------------------- extensions

interface ExtensionTable {
  receivedDay: string;
  /** The last local day of the notice window: a valid extension is notified on it. */
  windowLastDay: string;
  /** The day after the window: too late. */
  lateDay: string;
  valid: Amount;
  /** The last day with the valid extension. */
  lastDay: string;
  cap: { max: Amount; over: Amount } | { none: true; long: Amount; lastDay: string };
  /** Two extensions that together stay under any cap; the second is refused because one is allowed. */
  twice: [Amount, Amount];
  reasonRequired: boolean;
}

/** Declares the extension cases of one pack (call inside its describe). */
function extensionCases(code: string, t: ExtensionTable): void {
  const received = noon(t.receivedDay);
  const dayAfterReceipt = DateTime.fromISO(t.receivedDay).plus({ days: 1 }).toISODate()!;

  it(`a valid extension notified on the last day of the notice window (${t.windowLastDay}) -> ${t.lastDay}`, () => {
    const before = clockOf(code, received);
    expect(localOf(code, before.extensionNoticeDueAt)).toBe(endOf(t.windowLastDay));
    const clock = clockOf(code, received, [extension(t.windowLastDay, t.valid)]);
    expectLastDay(code, clock, t.lastDay);
    expect(clock.extensions).toHaveLength(1);
    expect(localOf(code, clock.extensions[0].noticeDueAt)).toBe(endOf(t.windowLastDay));
    expect(clock.extensions[0]).toMatchObject({ previousDueAt: before.finalDueAt, dueAt: clock.finalDueAt });
    // The only extension allowed is used: no further notice window.
    expect(clock.extensionNoticeDueAt).toBeNull();
  });

  it(`a notice on ${t.lateDay}, the day after the window, is refused`, () => {
    expect(violationOf(() => clockOf(code, received, [extension(t.lateDay, t.valid)]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
  });

  if ('max' in t.cap) {
    const { max, over } = t.cap;
    it(`more than the maximum (${JSON.stringify(over)}) is refused; without an amount the maximum is taken`, () => {
      expect(violationOf(() => clockOf(code, received, [extension(dayAfterReceipt, over)]))).toBe('EXTENSION_EXCEEDS_MAXIMUM');
      const { pack, binding } = resolved(code);
      expect(defaultExtension({ pack, binding, requestType: 'access', clockMode: 'receipt', receivedAt: new Date(received), events: [] })).toEqual(max);
    });
  } else {
    const { long, lastDay } = t.cap;
    it(`sets no cap: ${JSON.stringify(long)} is accepted -> ${lastDay}, and an extension must name its amount`, () => {
      expectLastDay(code, clockOf(code, received, [extension(dayAfterReceipt, long)]), lastDay);
      const { pack, binding } = resolved(code);
      // No maximum, so no default amount to take.
      expect(() => defaultExtension({ pack, binding, requestType: 'access', clockMode: 'receipt', receivedAt: new Date(received), events: [] })).toThrow(ClockRuleError);
    });
  }

  it('a second extension is refused (one allowed)', () => {
    const [first, second] = t.twice;
    expect(() => clockOf(code, received, [extension(dayAfterReceipt, first)])).not.toThrow();
    expect(violationOf(() => clockOf(code, received, [extension(dayAfterReceipt, first), extension(dayAfterReceipt, second)]))).toBe('EXTENSION_EXCEEDS_MAXIMUM');
  });

  it(t.reasonRequired ? 'an extension without reasons is refused' : 'an extension needs no reasons', () => {
    const run = () => clockOf(code, received, [extension(dayAfterReceipt, t.valid, null)]);
    if (t.reasonRequired) expect(violationOf(run)).toBe('EXTENSION_REASON_REQUIRED');
    else expect(run().lastDay).toBe(t.lastDay);
  });
}

function noExtensionCases(code: string, receivedDay: string, requestTypes: RequestType[] = ['access']): void {
  it.each(requestTypes)(`allows no extension (%s)`, (requestType) => {
    const clock = clockOf(code, noon(receivedDay), [], requestType);
    expect(clock.extensionNoticeDueAt).toBeNull();
    expect(violationOf(() => clockOf(code, noon(receivedDay), [extension(receivedDay, { additionalDays: 10 })], requestType))).toBe('EXTENSION_NOT_AVAILABLE');
  });
}

// -------------------------------------------------------------------- pauses

interface PauseTable {
  receivedDay: string;
  requestType?: RequestType;
  /** Local days the pause starts and ends on. */
  from: string;
  to: string;
  /** Per reason: the pack's rule and the resulting last day. */
  expected: Record<PauseReason, { rule: PauseRule; lastDay: string }>;
  /** Days a suspension adds (both end days counted). */
  suspendedDays?: number;
}

function pauseCases(code: string, t: PauseTable, title = ''): void {
  const requestType = t.requestType ?? 'access';
  it.each(Object.entries(t.expected) as Array<[PauseReason, { rule: PauseRule; lastDay: string }]>)(`${title}%s pause ${t.from} - ${t.to} (${requestType}): %j`, (reason, { rule, lastDay }) => {
    const clock = clockOf(code, noon(t.receivedDay), [pause(reason, t.from), resume(t.to)], requestType);
    expectLastDay(code, clock, lastDay);
    const effect = { restart: 'restarted', suspend: 'suspended', ignore: 'ignored' }[rule];
    expect(clock.pauses).toEqual([expect.objectContaining({ reason, rule, effect, excludedDays: rule === 'suspend' ? t.suspendedDays : 0 })]);
    if (rule === 'restart') expect(clock.startedAt).toEqual(new Date(noon(t.to)));
  });
}

// ------------------------------------------------------ appeals, acknowledgement

function appealOf(code: string, receivedDay: string, extended = false): string | null {
  const { pack, binding } = resolved(code);
  return localOf(code, appealDueAt(pack, binding, new Date(noon(receivedDay)), extended));
}

function noAppealOrAcknowledgement(code: string, receivedDay: string): void {
  it('gives no appeal to the controller and no acknowledgement deadline', () => {
    expect(appealOf(code, receivedDay)).toBeNull();
    expect(appealOf(code, receivedDay, true)).toBeNull();
    expect(clockOf(code, noon(receivedDay)).acknowledgementDueAt).toBeNull();
  });
}

const ignoreAll = (lastDay: string): PauseTable['expected'] => ({
  verification: { rule: 'ignore', lastDay },
  clarification: { rule: 'ignore', lastDay },
  fee: { rule: 'ignore', lastDay },
});

// ===================================================================== packs

describe('eu-gdpr (EU: Europe/Brussels, weekends only)', () => {
  extensionCases('EU', {
    // Received Sat 7 Feb 2026. The window is one month, rolled like the response: Sat 7 Mar -> Mon 9 Mar.
    receivedDay: '2026-02-07',
    windowLastDay: '2026-03-09',
    lateDay: '2026-03-10',
    // period_end: two months added to the unrolled end of the first month, Sat 7 Mar -> Thu 7 May (not Mon 9 Mar + 2 months).
    valid: { additionalMonths: 2 },
    lastDay: '2026-05-07',
    cap: { max: { additionalMonths: 2 }, over: { additionalMonths: 3 } },
    twice: [{ additionalMonths: 1 }, { additionalMonths: 1 }],
    reasonRequired: true,
  });

  pauseCases('EU', {
    // Received Tue 3 Mar 2026, base Fri 3 Apr (Good Friday is no holiday without a Member State).
    receivedDay: '2026-03-03',
    from: '2026-03-05',
    to: '2026-03-09',
    // 5-9 Mar = 5 days; 3 Apr + 5 = Wed 8 Apr. Fees (Art 12(5)) do not stop the clock.
    suspendedDays: 5,
    expected: {
      verification: { rule: 'suspend', lastDay: '2026-04-08' },
      clarification: { rule: 'suspend', lastDay: '2026-04-08' },
      fee: { rule: 'ignore', lastDay: '2026-04-03' },
    },
  });

  it('EU-13: 31 Jan 2025 -> 28 Feb, + 2 months -> Mon 28 Apr 2025 (two months after the end of the first month)', () => {
    expectLastDay('EU', clockOf('EU', noon('2025-01-31'), [extension('2025-02-14', { additionalMonths: 2 })]), '2025-04-28');
  });

  it('a suspension stretches the notice window, and the extension is added before the suspended days', () => {
    const events = [pause('verification', '2026-03-05'), resume('2026-03-09')];
    // Window: 3 Apr + 5 suspended days = Wed 8 Apr.
    expect(localOf('EU', clockOf('EU', noon('2026-03-03'), events).extensionNoticeDueAt)).toBe(endOf('2026-04-08'));
    // 3 Apr + 2 months = 3 Jun, + 5 days = Mon 8 Jun.
    expectLastDay('EU', clockOf('EU', noon('2026-03-03'), [...events, extension('2026-04-08', { additionalMonths: 2 })]), '2026-06-08');
    expect(violationOf(() => clockOf('EU', noon('2026-03-03'), [...events, extension('2026-04-09', { additionalMonths: 2 })]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
  });

  noAppealOrAcknowledgement('EU', '2026-03-03');
});

describe('uk-gdpr (GB: Europe/London, England and Wales bank holidays)', () => {
  extensionCases('GB', {
    // Received Sat 28 Feb 2026. The window is one month without a roll: Sat 28 Mar. The response itself
    // rolls to Mon 30 Mar, but a notice on Sun 29 Mar is already late.
    receivedDay: '2026-02-28',
    windowLastDay: '2026-03-28',
    lateDay: '2026-03-29',
    // Three months from the start (ICO): 28 Feb -> Thu 28 May.
    valid: { additionalMonths: 2 },
    lastDay: '2026-05-28',
    cap: { max: { additionalMonths: 2 }, over: { additionalMonths: 3 } },
    twice: [{ additionalMonths: 1 }, { additionalMonths: 1 }],
    reasonRequired: true,
  });

  // Received Mon 2 Mar 2026, base Thu 2 Apr; the pause runs 4-9 Mar (6 days).
  pauseCases('GB', {
    receivedDay: '2026-03-02',
    from: '2026-03-04',
    to: '2026-03-09',
    // Restart: one month from 9 Mar = Thu 9 Apr. Suspension (access only): 2 Apr + 6 = Wed 8 Apr.
    suspendedDays: 6,
    expected: {
      verification: { rule: 'restart', lastDay: '2026-04-09' },
      clarification: { rule: 'suspend', lastDay: '2026-04-08' },
      fee: { rule: 'restart', lastDay: '2026-04-09' },
    },
  });
  pauseCases('GB', {
    receivedDay: '2026-03-02',
    requestType: 'deletion',
    from: '2026-03-04',
    to: '2026-03-09',
    // Clarification of a deletion request does not stop the clock: Thu 2 Apr.
    expected: {
      verification: { rule: 'restart', lastDay: '2026-04-09' },
      clarification: { rule: 'ignore', lastDay: '2026-04-02' },
      fee: { rule: 'restart', lastDay: '2026-04-09' },
    },
  });

  it('EU-13 the ICO way: 31 Jan 2025 + 3 months -> Wed 30 Apr 2025', () => {
    expectLastDay('GB', clockOf('GB', noon('2025-01-31'), [extension('2025-02-14', { additionalMonths: 2 })]), '2025-04-30');
  });

  describe('an extension in time only because a clarification stretched the window', () => {
    // Received Thu 15 Oct 2026; clarification asked 20 Oct, answered 23 Oct: 4 days do not count.
    const received = noon('2026-10-15');
    const clarification = [pause('clarification', '2026-10-20'), resume('2026-10-23')];

    it('the window ends Sun 15 Nov + 4 = Thu 19 Nov', () => {
      expect(localOf('GB', clockOf('GB', received, clarification).extensionNoticeDueAt)).toBe(endOf('2026-11-19'));
    });

    it('notified Thu 19 Nov: 15 Oct + 3 months = Fri 15 Jan 2027, + 4 days = Tue 19 Jan 2027', () => {
      expectLastDay('GB', clockOf('GB', received, [...clarification, extension('2026-11-19', { additionalMonths: 2 })]), '2027-01-19');
    });

    it('without the clarification the same notice is four days late (window Sun 15 Nov)', () => {
      expect(violationOf(() => clockOf('GB', received, [extension('2026-11-19', { additionalMonths: 2 })]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
    });

    it('with it, a notice on Fri 20 Nov is late', () => {
      expect(violationOf(() => clockOf('GB', received, [...clarification, extension('2026-11-20', { additionalMonths: 2 })]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
    });
  });

  it('after a restart the window runs from the relevant time: 9 Mar -> 9 Apr; extended 9 Mar + 3 months = Tue 9 Jun', () => {
    // Received 2 Mar 2026 (first window ends 2 Apr); identity arrives 9 Mar.
    const verification = [pause('verification', '2026-03-04'), resume('2026-03-09')];
    expectLastDay('GB', clockOf('GB', noon('2026-03-02'), [...verification, extension('2026-04-05', { additionalMonths: 2 })]), '2026-06-09');
    expect(violationOf(() => clockOf('GB', noon('2026-03-02'), [...verification, extension('2026-04-10', { additionalMonths: 2 })]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
  });

  describe('Scotland and England differ after a pause', () => {
    it.each([
      // Received Thu 15 Oct 2026, fee asked 20 Oct, paid Fri 30 Oct: restart, 30 Oct + 1 month = Mon 30 Nov,
      // St Andrew's Day in Scotland -> Tue 1 Dec; a working day in England.
      ['fee restart to Mon 30 Nov, England', 'GB-ENG', '2026-10-15', 'fee', '2026-10-20', '2026-10-30', '2026-11-30'],
      ["fee restart to Mon 30 Nov, Scotland (St Andrew's Day) -> Tue 1 Dec", 'GB-SCT', '2026-10-15', 'fee', '2026-10-20', '2026-10-30', '2026-12-01'],
      // Received Fri 24 Jul 2026, base Mon 24 Aug; clarification 27 Jul - 2 Aug = 7 days -> Mon 31 Aug,
      // the summer bank holiday in England (-> Tue 1 Sep); Scotland's was 3 Aug.
      ['clarification suspends to Mon 31 Aug, England (summer bank holiday) -> Tue 1 Sep', 'GB-ENG', '2026-07-24', 'clarification', '2026-07-27', '2026-08-02', '2026-09-01'],
      ['clarification suspends to Mon 31 Aug, Scotland: a working day', 'GB-SCT', '2026-07-24', 'clarification', '2026-07-27', '2026-08-02', '2026-08-31'],
    ] as const)('%s', (_title, code, receivedDay, reason, from, to, lastDay) => {
      expectLastDay(code, clockOf(code, noon(receivedDay), [pause(reason, from), resume(to)]), lastDay);
    });
  });

  noAppealOrAcknowledgement('GB', '2026-03-02');
});

describe('us-ca-ccpa (US-CA: America/Los_Angeles)', () => {
  extensionCases('US-CA', {
    // Received Wed 10 Jun 2026, the receipt day is day one: day 45 = 10 Jun + 44 = Fri 24 Jul.
    receivedDay: '2026-06-10',
    windowLastDay: '2026-07-24',
    lateDay: '2026-07-25',
    // 90 days with 10 Jun as day one: 10 Jun + 89 = Mon 7 Sep (Labor Day; the CCPA does not roll).
    valid: { additionalDays: 45 },
    lastDay: '2026-09-07',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });
  noExtensionCases('US-CA', '2026-06-10', ['opt_out', 'restriction', 'objection']);

  // Nothing stops the 45 days (11 CCR 7021(b)): Fri 24 Jul.
  pauseCases('US-CA', { receivedDay: '2026-06-10', from: '2026-06-12', to: '2026-06-19', expected: ignoreAll('2026-07-24') });

  it('acknowledges within 10 business days across Thanksgiving: Mon 16 Nov 2026 -> Wed 2 Dec', () => {
    // 17-20 Nov (4), 23-25 Nov (7), Thanksgiving 26 Nov and the day after (California holidays), 30 Nov (8), 1 Dec (9), 2 Dec (10).
    const clock = clockOf('US-CA', noon('2026-11-16'));
    expect(localOf('US-CA', clock.acknowledgementDueAt)).toBe(endOf('2026-12-02'));
    expect(clock.acknowledgementDueAt).toEqual(new Date('2026-12-03T07:59:59.999Z'));
  });

  it('has no acknowledgement deadline for an opt-out, and no appeal', () => {
    expect(clockOf('US-CA', noon('2026-11-16'), [], 'opt_out').acknowledgementDueAt).toBeNull();
    expect(appealOf('US-CA', '2026-11-16')).toBeNull();
  });
});

describe('us-va-vcdpa (US-VA: America/New_York, no roll)', () => {
  extensionCases('US-VA', {
    // Received Tue 14 Apr 2026: 14 Apr + 45 = Fri 29 May.
    receivedDay: '2026-04-14',
    windowLastDay: '2026-05-29',
    lateDay: '2026-05-30',
    // 14 Apr + 90 = Mon 13 Jul.
    valid: { additionalDays: 45 },
    lastDay: '2026-07-13',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });

  pauseCases('US-VA', { receivedDay: '2026-04-14', from: '2026-04-16', to: '2026-04-21', expected: ignoreAll('2026-05-29') });

  it('answers an appeal within 60 days, without extension: Mon 3 Aug 2026 + 60 = Fri 2 Oct', () => {
    expect(appealOf('US-VA', '2026-08-03')).toBe(endOf('2026-10-02'));
    expect(appealOf('US-VA', '2026-08-03', true)).toBe(endOf('2026-10-02'));
    expect(clockOf('US-VA', noon('2026-08-03')).acknowledgementDueAt).toBeNull();
  });
});

describe('us-co-cpa (US-CO: America/Denver, C.R.S. 2-4-108 roll)', () => {
  extensionCases('US-CO', {
    // Received Mon 6 Apr 2026: 6 Apr + 45 = Thu 21 May (the notice window does not roll; no need here).
    receivedDay: '2026-04-06',
    windowLastDay: '2026-05-21',
    lateDay: '2026-05-22',
    // 6 Apr + 90 = Sun 5 Jul -> Mon 6 Jul (the Independence Day holidays, Fri 3 and Sat 4 Jul, are before it).
    valid: { additionalDays: 45 },
    lastDay: '2026-07-06',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });

  pauseCases('US-CO', { receivedDay: '2026-04-06', from: '2026-04-08', to: '2026-04-13', expected: ignoreAll('2026-05-21') });

  it('answers an appeal within 45 days: Tue 17 Nov 2026 + 45 = New Year’s Day Fri 1 Jan 2027 -> Mon 4 Jan', () => {
    expect(appealOf('US-CO', '2026-11-17')).toBe(endOf('2027-01-04'));
  });

  it('or 45 + 60 days when extended: 1 Jan 2027 + 60 = Tue 2 Mar (105 days; the roll applies only at the end, not 4 Jan + 60)', () => {
    expect(appealOf('US-CO', '2026-11-17', true)).toBe(endOf('2027-03-02'));
    expect(clockOf('US-CO', noon('2026-11-17')).acknowledgementDueAt).toBeNull();
  });
});

describe('us-ct-ctdpa (US-CT: America/New_York, no roll)', () => {
  extensionCases('US-CT', {
    // Received Thu 20 Aug 2026: 20 Aug + 45 = Sun 4 Oct, no roll.
    receivedDay: '2026-08-20',
    windowLastDay: '2026-10-04',
    lateDay: '2026-10-05',
    // 20 Aug + 90 = Wed 18 Nov.
    valid: { additionalDays: 45 },
    lastDay: '2026-11-18',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });

  pauseCases('US-CT', { receivedDay: '2026-08-20', from: '2026-08-24', to: '2026-08-28', expected: ignoreAll('2026-10-04') });

  it('answers an appeal within 60 days, no roll: Mon 2 Feb 2026 + 60 = Good Friday 3 Apr', () => {
    expect(appealOf('US-CT', '2026-02-02')).toBe(endOf('2026-04-03'));
    expect(appealOf('US-CT', '2026-02-02', true)).toBe(endOf('2026-04-03'));
    expect(clockOf('US-CT', noon('2026-02-02')).acknowledgementDueAt).toBeNull();
  });
});

describe('us-ut-ucpa (US-UT: America/Denver, no roll)', () => {
  extensionCases('US-UT', {
    // Received Tue 1 Dec 2026: 1 Dec + 45 = Fri 15 Jan 2027.
    receivedDay: '2026-12-01',
    windowLastDay: '2027-01-15',
    lateDay: '2027-01-16',
    // 1 Dec + 90 = Mon 1 Mar 2027.
    valid: { additionalDays: 45 },
    lastDay: '2027-03-01',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });

  pauseCases('US-UT', { receivedDay: '2026-12-01', from: '2026-12-03', to: '2026-12-08', expected: ignoreAll('2027-01-15') });

  noAppealOrAcknowledgement('US-UT', '2026-12-01');
});

describe('us-tx-tdpsa (US-TX: America/Chicago, Gov’t Code 311.014 roll)', () => {
  extensionCases('US-TX', {
    // Received Mon 28 Sep 2026: 28 Sep + 45 = Thu 12 Nov.
    receivedDay: '2026-09-28',
    windowLastDay: '2026-11-12',
    lateDay: '2026-11-13',
    // 28 Sep + 90 = Sun 27 Dec -> Mon 28 Dec (the Texas holidays 24-26 Dec are before it).
    valid: { additionalDays: 45 },
    lastDay: '2026-12-28',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });

  pauseCases('US-TX', { receivedDay: '2026-09-28', from: '2026-09-30', to: '2026-10-05', expected: ignoreAll('2026-11-12') });

  it('answers an appeal by the 60th day, rolled: Tue 5 May 2026 + 60 = Sat 4 Jul -> Mon 6 Jul', () => {
    expect(appealOf('US-TX', '2026-05-05')).toBe(endOf('2026-07-06'));
    expect(appealOf('US-TX', '2026-05-05', true)).toBe(endOf('2026-07-06'));
    expect(clockOf('US-TX', noon('2026-05-05')).acknowledgementDueAt).toBeNull();
  });
});

describe('us-or-ocpa (US-OR: America/Los_Angeles, no roll)', () => {
  extensionCases('US-OR', {
    // Received Tue 20 Jan 2026: 20 Jan + 45 = Fri 6 Mar.
    receivedDay: '2026-01-20',
    windowLastDay: '2026-03-06',
    lateDay: '2026-03-07',
    // 20 Jan + 90 = Mon 20 Apr.
    valid: { additionalDays: 45 },
    lastDay: '2026-04-20',
    cap: { max: { additionalDays: 45 }, over: { additionalDays: 46 } },
    twice: [{ additionalDays: 20 }, { additionalDays: 20 }],
    reasonRequired: true,
  });

  pauseCases('US-OR', { receivedDay: '2026-01-20', from: '2026-01-22', to: '2026-01-27', expected: ignoreAll('2026-03-06') });

  it('answers an appeal within 45 days, without extension: Sun 15 Nov 2026 + 45 = Wed 30 Dec', () => {
    expect(appealOf('US-OR', '2026-11-15')).toBe(endOf('2026-12-30'));
    expect(appealOf('US-OR', '2026-11-15', true)).toBe(endOf('2026-12-30'));
    expect(clockOf('US-OR', noon('2026-11-15')).acknowledgementDueAt).toBeNull();
  });
});

describe('ca-pipeda (CA: America/Toronto, Sundays and holidays roll)', () => {
  extensionCases('CA', {
    // Received Sat 2 May 2026: 2 May + 30 = Mon 1 Jun.
    receivedDay: '2026-05-02',
    windowLastDay: '2026-06-01',
    lateDay: '2026-06-02',
    // 2 May + 60 = Canada Day Wed 1 Jul -> Thu 2 Jul.
    valid: { additionalDays: 30 },
    lastDay: '2026-07-02',
    cap: { max: { additionalDays: 30 }, over: { additionalDays: 31 } },
    twice: [{ additionalDays: 10 }, { additionalDays: 10 }],
    reasonRequired: true,
  });

  pauseCases('CA', { receivedDay: '2026-05-02', from: '2026-05-05', to: '2026-05-08', expected: ignoreAll('2026-06-01') });

  noAppealOrAcknowledgement('CA', '2026-05-02');
});

describe('za-popia (ZA: Africa/Johannesburg, Sundays and public holidays roll)', () => {
  extensionCases('ZA', {
    // Received Mon 2 Mar 2026: 2 Mar + 30 = Wed 1 Apr.
    receivedDay: '2026-03-02',
    windowLastDay: '2026-04-01',
    lateDay: '2026-04-02',
    // 2 Mar + 60 = Workers' Day Fri 1 May -> Sat 2 May (a Saturday is not excluded).
    valid: { additionalDays: 30 },
    lastDay: '2026-05-02',
    cap: { max: { additionalDays: 30 }, over: { additionalDays: 31 } },
    twice: [{ additionalDays: 10 }, { additionalDays: 10 }],
    reasonRequired: true,
  });

  pauseCases('ZA', {
    // Received Mon 2 Mar 2026, base Wed 1 Apr; pause 4-8 Mar = 5 days.
    receivedDay: '2026-03-02',
    from: '2026-03-04',
    to: '2026-03-08',
    // Fee suspends: 1 Apr + 5 = Family Day Mon 6 Apr -> Tue 7 Apr.
    suspendedDays: 5,
    expected: {
      verification: { rule: 'ignore', lastDay: '2026-04-01' },
      clarification: { rule: 'ignore', lastDay: '2026-04-01' },
      fee: { rule: 'suspend', lastDay: '2026-04-07' },
    },
  });

  noAppealOrAcknowledgement('ZA', '2026-03-02');
});

describe('sg-pdpa (SG: Asia/Singapore, no roll)', () => {
  extensionCases('SG', {
    // Received Wed 1 Jul 2026: 1 Jul + 30 = Fri 31 Jul.
    receivedDay: '2026-07-01',
    windowLastDay: '2026-07-31',
    lateDay: '2026-08-01',
    // 1 Jul + 30 + 60 = Tue 29 Sep.
    valid: { additionalDays: 60 },
    lastDay: '2026-09-29',
    // No cap: 1 Jul + 30 + 365 = Sat 31 Jul 2027, no roll.
    cap: { none: true, long: { additionalDays: 365 }, lastDay: '2027-07-31' },
    twice: [{ additionalDays: 10 }, { additionalDays: 10 }],
    reasonRequired: false,
  });

  pauseCases('SG', {
    // Received Wed 1 Jul 2026, base Fri 31 Jul; pause 3-8 Jul = 6 days.
    receivedDay: '2026-07-01',
    from: '2026-07-03',
    to: '2026-07-08',
    // Fee suspends (reg 7(3)): 31 Jul + 6 = Thu 6 Aug.
    suspendedDays: 6,
    expected: {
      verification: { rule: 'ignore', lastDay: '2026-07-31' },
      clarification: { rule: 'ignore', lastDay: '2026-07-31' },
      fee: { rule: 'suspend', lastDay: '2026-08-06' },
    },
  });

  noAppealOrAcknowledgement('SG', '2026-07-01');
});

describe('ch-nfadp (CH: Europe/Zurich, Saturdays, Sundays and holidays roll)', () => {
  extensionCases('CH', {
    // Received Mon 20 Apr 2026: 20 Apr + 30 = Wed 20 May.
    receivedDay: '2026-04-20',
    windowLastDay: '2026-05-20',
    lateDay: '2026-05-21',
    // 20 Apr + 30 + 31 = Sat 20 Jun -> Mon 22 Jun.
    valid: { additionalDays: 31 },
    lastDay: '2026-06-22',
    // No cap: 20 Apr + 30 + 365 = Thu 20 May 2027 (Ascension is 6 May 2027).
    cap: { none: true, long: { additionalDays: 365 }, lastDay: '2027-05-20' },
    twice: [{ additionalDays: 10 }, { additionalDays: 10 }],
    reasonRequired: true,
  });

  pauseCases('CH', {
    // Received Fri 20 Feb 2026: 20 Feb + 30 = Sun 22 Mar -> Mon 23 Mar.
    // Cost notice 23 Feb, reflection period over 5 Mar (DPO Art 19).
    receivedDay: '2026-02-20',
    from: '2026-02-23',
    to: '2026-03-05',
    // Fee restarts: 5 Mar + 30 = Sat 4 Apr, Easter Sunday 5, Easter Monday 6 -> Tue 7 Apr.
    expected: {
      verification: { rule: 'ignore', lastDay: '2026-03-23' },
      clarification: { rule: 'ignore', lastDay: '2026-03-23' },
      fee: { rule: 'restart', lastDay: '2026-04-07' },
    },
  });

  noAppealOrAcknowledgement('CH', '2026-02-20');
});

describe('br-lgpd (BR: America/Sao_Paulo)', () => {
  noExtensionCases('BR', '2026-05-04');
  // Mon 4 May 2026 + 15 = Tue 19 May.
  pauseCases('BR', { receivedDay: '2026-05-04', from: '2026-05-06', to: '2026-05-11', expected: ignoreAll('2026-05-19') });
  noAppealOrAcknowledgement('BR', '2026-05-04');
});

describe('ca-qc-law25 (CA-QC: America/Toronto)', () => {
  noExtensionCases('CA-QC', '2026-05-04');
  // Mon 4 May 2026 + 30 = Wed 3 Jun.
  pauseCases('CA-QC', { receivedDay: '2026-05-04', from: '2026-05-06', to: '2026-05-11', expected: ignoreAll('2026-06-03') });
  noAppealOrAcknowledgement('CA-QC', '2026-05-04');
});

describe('au-app (AU: Australia/Sydney)', () => {
  noExtensionCases('AU', '2026-05-04');
  // Mon 4 May 2026 + 30 = Wed 3 Jun (12:00 UTC is 22:00 AEST, still 4 May).
  pauseCases('AU', { receivedDay: '2026-05-04', from: '2026-05-06', to: '2026-05-11', expected: ignoreAll('2026-06-03') });
  noAppealOrAcknowledgement('AU', '2026-05-04');
});

describe('jp-appi (JP: Asia/Tokyo)', () => {
  noExtensionCases('JP', '2026-05-04');
  // Mon 4 May 2026 + 14 = Mon 18 May.
  pauseCases('JP', { receivedDay: '2026-05-04', from: '2026-05-06', to: '2026-05-11', expected: ignoreAll('2026-05-18') });
  noAppealOrAcknowledgement('JP', '2026-05-04');
});

describe('in-dpdp (IN: Asia/Kolkata)', () => {
  noExtensionCases('IN', '2026-05-04');
  // Mon 4 May 2026 + 30 = Wed 3 Jun.
  pauseCases('IN', { receivedDay: '2026-05-04', from: '2026-05-06', to: '2026-05-11', expected: ignoreAll('2026-06-03') });
  noAppealOrAcknowledgement('IN', '2026-05-04');
});
