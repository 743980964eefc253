import { DateTime } from 'luxon';
import { bindingIn, type ClockMode, type PauseReason, type PolicyPack, policyPackVersion, REQUEST_TYPES, type RequestType } from '@dsar/contracts';
import { type ClockEvent, type ClockResult, computeClock } from './deadline-engine';
import { violationOf } from './deadline-test-kit';

/**
 * The two versions of uk-gdpr on the same calendar (GB: Europe/London, England
 * and Wales bank holidays): 1.1.0 holds the rules before the Data (Use and
 * Access) Act 2025 (requests received before 5 February 2026: no
 * stop-the-clock for clarification), 1.0.0 the rules after it (Art 12A:
 * clarification of an access request suspends the clock). Each version is
 * taken by its number, as a request that pinned it would; which version a
 * request gets is left to the version selection (jurisdictions.ts).
 *
 * Every expected date was counted by hand and checked with GNU date
 * (`date -d '2026-03-06 +6 days' '+%F %a'`), bank holidays with date-holidays'
 * list of `public` days (`new H('GB', 'ENG').getHolidays(2026)`). Events are at
 * 12:00 UTC, which in winter is 12:00 in London. A deadline is the last
 * millisecond of its last local day.
 */

function version(v: string): PolicyPack {
  const pack = policyPackVersion('uk-gdpr', v);
  if (!pack) throw new Error(`uk-gdpr ${v} is not a built-in version`);
  return pack;
}

const PRE_DUAA = version('1.1.0');
const POST_DUAA = version('1.0.0');

function clockOf(pack: PolicyPack, receivedDay: string, events: ClockEvent[] = [], requestType: RequestType = 'access', clockMode: ClockMode = 'receipt'): ClockResult {
  const binding = bindingIn(pack, 'GB');
  if (!binding) throw new Error(`uk-gdpr ${pack.version} does not cover GB`);
  return computeClock({ pack, binding, requestType, clockMode, receivedAt: new Date(noon(receivedDay)), events });
}

/** Mid-day UTC on a date: the same local date in London. */
const noon = (day: string) => `${day}T12:00:00Z`;
const pause = (reason: PauseReason, day: string): ClockEvent => ({ kind: 'pause', reason, at: new Date(noon(day)), actor: 'key:operator' });
const resume = (day: string): ClockEvent => ({ kind: 'resume', at: new Date(noon(day)), actor: 'key:operator' });
const extension = (day: string): ClockEvent => ({
  kind: 'extension',
  at: new Date(noon(day)),
  actor: 'key:operator',
  justification: 'policy_extension',
  reason: 'complex request',
  additionalMonths: 2,
});

/** The local day and time of an instant in London. */
const local = (at: Date | null) => (at ? DateTime.fromJSDate(at, { zone: 'Europe/London' }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS") : null);
const endOf = (day: string) => `${day}T23:59:59.999`;

function expectLastDay(clock: ClockResult, lastDay: string): void {
  expect(clock.lastDay).toBe(lastDay);
  expect(local(clock.finalDueAt)).toBe(endOf(lastDay));
}

/** Clarification asked Mon 9 Feb 2026, answered Sat 14 Feb: 6 local days, both end days counted. */
const clarification = [pause('clarification', '2026-02-09'), resume('2026-02-14')];

describe('uk-gdpr 1.1.0 (before the Data (Use and Access) Act 2025) and 1.0.0 (after it)', () => {
  it('1.1.0: access received Wed 4 Feb 2026, clarification 9-14 Feb: no stop-the-clock, still due Wed 4 Mar 2026', () => {
    const clock = clockOf(PRE_DUAA, '2026-02-04', clarification);
    expectLastDay(clock, '2026-03-04');
    // End of day in London, which in March is still GMT.
    expect(clock.finalDueAt.toISOString()).toBe('2026-03-04T23:59:59.999Z');
    expect(clock.finalDueAt).toEqual(clock.baseDeadline);
    expect(clock.pauses).toEqual([expect.objectContaining({ reason: 'clarification', rule: 'ignore', effect: 'ignored', excludedDays: 0 })]);
  });

  it('1.0.0: the same request received Fri 6 Feb 2026 with the same clarification moves by 6 days, Fri 6 Mar -> Thu 12 Mar', () => {
    expectLastDay(clockOf(POST_DUAA, '2026-02-06'), '2026-03-06');
    const clock = clockOf(POST_DUAA, '2026-02-06', clarification);
    expectLastDay(clock, '2026-03-12');
    expect(clock.pauses).toEqual([expect.objectContaining({ reason: 'clarification', rule: 'suspend', effect: 'suspended', excludedDays: 6 })]);
  });

  it.each(REQUEST_TYPES)('1.1.0: a clarification of a %s request does not stop the clock either', (requestType) => {
    expectLastDay(clockOf(PRE_DUAA, '2026-02-04', clarification, requestType), '2026-03-04');
  });

  it('1.1.0: received Sat 31 Jan 2026, one month ends Sat 28 Feb -> Mon 2 Mar 2026 (ICO: the next Monday)', () => {
    const clock = clockOf(PRE_DUAA, '2026-01-31');
    expectLastDay(clock, '2026-03-02');
    expect(clock.refusalNoticeDueAt).toEqual(clock.finalDueAt);
    expect(clock.acknowledgementDueAt).toBeNull();
    // The extension notice window is not rolled: Sat 28 Feb.
    expect(local(clock.extensionNoticeDueAt)).toBe(endOf('2026-02-28'));
    // 1.1.0 was in force that day; 1.0.0, applied to the same request, warns that it was not.
    expect(clock.steps.join('\n')).not.toContain('Received before');
    expect(clockOf(POST_DUAA, '2026-01-31').steps.join('\n')).toContain('Received before uk-gdpr took effect (2026-02-05)');
  });

  describe.each(['receipt', 'active'] as const)('1.1.0, clock mode %s', (clockMode) => {
    it.each(['verification', 'fee'] as const)('received Mon 12 Jan 2026 (due Thu 12 Feb); %s asked 13 Jan, received Tue 20 Jan: the month restarts -> Fri 20 Feb', (reason) => {
      expectLastDay(clockOf(PRE_DUAA, '2026-01-12', [], 'access', clockMode), '2026-02-12');
      const clock = clockOf(PRE_DUAA, '2026-01-12', [pause(reason, '2026-01-13'), resume('2026-01-20')], 'access', clockMode);
      expectLastDay(clock, '2026-02-20');
      expect(clock.startedAt).toEqual(new Date(noon('2026-01-20')));
      expect(clock.pauses).toEqual([expect.objectContaining({ reason, rule: 'restart', effect: 'restarted', excludedDays: 0 })]);
      // The extension notice window runs from the restart too.
      expect(local(clock.extensionNoticeDueAt)).toBe(endOf('2026-02-20'));
    });
  });

  describe('the extension notice window', () => {
    it('1.1.0: a clarification does not stretch it: received Wed 4 Feb, window ends Wed 4 Mar; a notice on Thu 5 Mar is late', () => {
      expect(local(clockOf(PRE_DUAA, '2026-02-04', clarification).extensionNoticeDueAt)).toBe(endOf('2026-03-04'));
      expect(violationOf(() => clockOf(PRE_DUAA, '2026-02-04', [...clarification, extension('2026-03-05')]))).toBe('EXTENSION_NOTICE_PERIOD_ELAPSED');
    });

    it('1.1.0: notified Wed 4 Mar, three months from the start: Mon 4 May 2026 (Early May bank holiday) -> Tue 5 May', () => {
      expectLastDay(clockOf(PRE_DUAA, '2026-02-04', [...clarification, extension('2026-03-04')]), '2026-05-05');
    });

    it('1.0.0: received Fri 6 Feb, the same clarification stretches it from Fri 6 Mar to Thu 12 Mar', () => {
      expect(local(clockOf(POST_DUAA, '2026-02-06', clarification).extensionNoticeDueAt)).toBe(endOf('2026-03-12'));
      expect(violationOf(() => clockOf(POST_DUAA, '2026-02-06', [...clarification, extension('2026-03-12')]))).toBeUndefined();
    });
  });
});
