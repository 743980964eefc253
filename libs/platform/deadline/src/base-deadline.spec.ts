import { type JurisdictionBinding, type PeriodRule, REQUEST_TYPES, builtInPolicyPacks, resolveJurisdiction, ruleFor } from '@dsar/contracts';
import { computeBaseDeadline, isPublicHoliday, isWorkingDay } from './index';
import { type Case, expectDeadline } from './deadline-test-kit';

/**
 * Every expected date below was checked against a calendar (GNU date and tzdata)
 * independently of this code; weekdays are noted where they decide the result.
 */
function resolved(code: string) {
  const found = resolveJurisdiction(code);
  if (!found) throw new Error(`no built-in pack covers ${code}`);
  return found;
}

const { pack: gdpr, binding: germany } = resolved('DE');
const france = resolved('FR').binding;
const ireland = resolved('IE').binding;
const euWithoutMemberState = resolved('EU').binding;
const { pack: ccpa, binding: california } = resolved('US-CA');

const gdprMonth = ruleFor(gdpr, 'access').period;
const ccpa45Days = ruleFor(ccpa, 'access').period;
const ccpaOptOut = ruleFor(ccpa, 'opt_out').period;

describe('computeBaseDeadline: GDPR month periods from the eu-gdpr pack', () => {
  it.each<Case>([
    ['3 Sep -> 3 Oct (Fri, no French holiday)', gdprMonth, france, '2025-09-03T10:00:00Z', { receiptDay: '2025-09-03', periodEnd: '2025-10-03', lastDay: '2025-10-03' }],
    ['31 Mar -> 30 Apr (Thu), April has no 31st', gdprMonth, france, '2026-03-31T10:00:00Z', { receiptDay: '2026-03-31', periodEnd: '2026-04-30', lastDay: '2026-04-30' }],
    ['31 Jan 2026 -> 28 Feb (Sat) rolls to Mon 2 Mar', gdprMonth, germany, '2026-01-31T10:00:00Z', { receiptDay: '2026-01-31', periodEnd: '2026-02-28', lastDay: '2026-03-02' }],
    ['31 Jan 2028 -> 29 Feb 2028 (leap year, Tue)', gdprMonth, germany, '2028-01-31T10:00:00Z', { receiptDay: '2028-01-31', periodEnd: '2028-02-29', lastDay: '2028-02-29' }],
    ['DE: 3 Oct 2028 (Tue) is German Unity Day, rolls to Wed 4 Oct', gdprMonth, germany, '2028-09-03T10:00:00Z', { receiptDay: '2028-09-03', periodEnd: '2028-10-03', lastDay: '2028-10-04' }],
    ['FR: 3 Oct 2028 is an ordinary Tuesday, no roll', gdprMonth, france, '2028-09-03T10:00:00Z', { receiptDay: '2028-09-03', periodEnd: '2028-10-03', lastDay: '2028-10-03' }],
    ['DE: 3 Oct 2025 (Fri, Unity Day) rolls over the weekend to Mon 6 Oct', gdprMonth, germany, '2025-09-03T10:00:00Z', { receiptDay: '2025-09-03', periodEnd: '2025-10-03', lastDay: '2025-10-06' }],
    [
      'DE: 25 Dec 2026 (Fri), 26 Dec (Sat, holiday), 27 Dec (Sun) -> Mon 28 Dec',
      gdprMonth,
      germany,
      '2026-11-25T10:00:00Z',
      { receiptDay: '2026-11-25', periodEnd: '2026-12-25', lastDay: '2026-12-28' },
    ],
    [
      'EU without member state: 25 Dec 2026 (Fri) is not a holiday there',
      gdprMonth,
      euWithoutMemberState,
      '2026-11-25T10:00:00Z',
      { receiptDay: '2026-11-25', periodEnd: '2026-12-25', lastDay: '2026-12-25' },
    ],
    [
      'EU without member state still rolls weekends: 28 Feb 2026 (Sat) -> 2 Mar',
      gdprMonth,
      euWithoutMemberState,
      '2026-01-31T10:00:00Z',
      { receiptDay: '2026-01-31', periodEnd: '2026-02-28', lastDay: '2026-03-02' },
    ],
    ['DE: Good Friday 3 Apr 2026 and Easter Monday 6 Apr roll to Tue 7 Apr', gdprMonth, germany, '2026-03-03T10:00:00Z', { receiptDay: '2026-03-03', periodEnd: '2026-04-03', lastDay: '2026-04-07' }],
    ['IE: Good Friday is only a bank holiday, no roll', gdprMonth, ireland, '2026-03-03T10:00:00Z', { receiptDay: '2026-03-03', periodEnd: '2026-04-03', lastDay: '2026-04-03' }],
  ])('%s', (_title, rule, binding, receivedAt, expected) => {
    expectDeadline(rule, binding, receivedAt, expected);
  });

  it('uses the same rule for every GDPR request type', () => {
    expect(new Set(REQUEST_TYPES.map((t) => JSON.stringify(ruleFor(gdpr, t).period)))).toEqual(new Set([JSON.stringify(gdprMonth)]));
  });
});

describe('computeBaseDeadline: the receipt day is the local date in the jurisdiction', () => {
  it.each<Case>([
    // 00:30 CEST on 1 April: the month runs from 1 April, to Fri 1 May (Labour Day), then over the weekend.
    ['22:30Z on 31 Mar is 1 Apr in Berlin', gdprMonth, germany, '2026-03-31T22:30:00Z', { receiptDay: '2026-04-01', periodEnd: '2026-05-01', lastDay: '2026-05-04' }],
    ['21:59:59Z on 31 Mar is still 31 Mar in Berlin', gdprMonth, germany, '2026-03-31T21:59:59Z', { receiptDay: '2026-03-31', periodEnd: '2026-04-30', lastDay: '2026-04-30' }],
    // 23:00 PST on 1 March.
    ['07:00Z on 2 Mar is 1 Mar in Los Angeles', ccpa45Days, california, '2026-03-02T07:00:00Z', { receiptDay: '2026-03-01', periodEnd: '2026-04-14', lastDay: '2026-04-14' }],
    // 22:00 PDT on 1 July.
    ['05:00Z on 2 Jul is 1 Jul in Los Angeles (business days)', ccpaOptOut, california, '2026-07-02T05:00:00Z', { receiptDay: '2026-07-01', periodEnd: '2026-07-23', lastDay: '2026-07-23' }],
  ])('%s', (_title, rule, binding, receivedAt, expected) => {
    expectDeadline(rule, binding, receivedAt, expected);
  });
});

describe('computeBaseDeadline: CCPA periods from the us-ca-ccpa pack', () => {
  it.each<Case>([
    [
      '45 days from 1 Mar, the receipt day being day one (11 CCR 7021(b)) -> Tue 14 Apr',
      ccpa45Days,
      california,
      '2026-03-01T20:00:00Z',
      { receiptDay: '2026-03-01', periodEnd: '2026-04-14', lastDay: '2026-04-14' },
    ],
    ['45 days ending on Sat 18 Apr does not roll', ccpa45Days, california, '2026-03-05T20:00:00Z', { receiptDay: '2026-03-05', periodEnd: '2026-04-18', lastDay: '2026-04-18' }],
    ['45 days ending on Independence Day (Sat 4 Jul) does not roll', ccpa45Days, california, '2026-05-21T19:00:00Z', { receiptDay: '2026-05-21', periodEnd: '2026-07-04', lastDay: '2026-07-04' }],
    // 17 Nov - 9 Dec: Thanksgiving (26 Nov) and the day after (27 Nov) are California holidays.
    ['15 business days from Mon 16 Nov skip Thanksgiving -> Wed 9 Dec', ccpaOptOut, california, '2026-11-16T20:00:00Z', { receiptDay: '2026-11-16', periodEnd: '2026-12-09', lastDay: '2026-12-09' }],
    // Fri 3 Jul is the observed Independence Day (4 Jul is a Saturday).
    ['15 business days from Wed 1 Jul skip Fri 3 Jul -> Thu 23 Jul', ccpaOptOut, california, '2026-07-01T19:00:00Z', { receiptDay: '2026-07-01', periodEnd: '2026-07-23', lastDay: '2026-07-23' }],
  ])('%s', (_title, rule, binding, receivedAt, expected) => {
    expectDeadline(rule, binding, receivedAt, expected);
  });

  it('gives restriction and objection the same 15 business days as opt-out', () => {
    expect(ruleFor(ccpa, 'restriction').period).toEqual(ccpaOptOut);
    expect(ruleFor(ccpa, 'objection').period).toEqual(ccpaOptOut);
  });
});

describe('computeBaseDeadline: counting conventions the packs do not use yet', () => {
  const rule = (overrides: Partial<PeriodRule>): PeriodRule => ({ amount: 1, unit: 'months', countReceiptDay: false, roll: 'none', ...overrides });

  it.each<Case>([
    [
      'calendar days with the receipt day as day one: 1 Mar + 45 -> 14 Apr',
      rule({ amount: 45, unit: 'calendar_days', countReceiptDay: true }),
      california,
      '2026-03-01T20:00:00Z',
      { receiptDay: '2026-03-01', periodEnd: '2026-04-14', lastDay: '2026-04-14' },
    ],
    [
      'countReceiptDay does not move a month period',
      rule({ countReceiptDay: true, roll: 'saturday_sunday_holiday' }),
      france,
      '2025-09-03T10:00:00Z',
      { receiptDay: '2025-09-03', periodEnd: '2025-10-03', lastDay: '2025-10-03' },
    ],
    [
      'business days counting a working receipt day: Mon 16 Nov -> Tue 8 Dec',
      rule({ amount: 15, unit: 'business_days', countReceiptDay: true }),
      california,
      '2026-11-16T20:00:00Z',
      { receiptDay: '2026-11-16', periodEnd: '2026-12-08', lastDay: '2026-12-08' },
    ],
    [
      'business days: a Saturday receipt day is not day one -> Fri 24 Jul',
      rule({ amount: 15, unit: 'business_days', countReceiptDay: true }),
      california,
      '2026-07-04T19:00:00Z',
      { receiptDay: '2026-07-04', periodEnd: '2026-07-24', lastDay: '2026-07-24' },
    ],
    [
      'one business day counting a working receipt day is that day',
      rule({ amount: 1, unit: 'business_days', countReceiptDay: true }),
      california,
      '2026-07-01T19:00:00Z',
      { receiptDay: '2026-07-01', periodEnd: '2026-07-01', lastDay: '2026-07-01' },
    ],
    [
      'sunday_holiday keeps a plain Saturday: 28 Feb 2026',
      rule({ roll: 'sunday_holiday' }),
      germany,
      '2026-01-31T10:00:00Z',
      { receiptDay: '2026-01-31', periodEnd: '2026-02-28', lastDay: '2026-02-28' },
    ],
    [
      'sunday_holiday rolls a Sunday: 1 Mar 2026 -> Mon 2 Mar',
      rule({ roll: 'sunday_holiday' }),
      germany,
      '2026-02-01T10:00:00Z',
      { receiptDay: '2026-02-01', periodEnd: '2026-03-01', lastDay: '2026-03-02' },
    ],
    [
      'sunday_holiday rolls a Saturday holiday: Sat 3 Oct 2026 (Unity Day) -> Mon 5 Oct',
      rule({ roll: 'sunday_holiday' }),
      germany,
      '2026-09-03T10:00:00Z',
      { receiptDay: '2026-09-03', periodEnd: '2026-10-03', lastDay: '2026-10-05' },
    ],
    ['roll none keeps a Sunday', rule({}), germany, '2026-02-01T10:00:00Z', { receiptDay: '2026-02-01', periodEnd: '2026-03-01', lastDay: '2026-03-01' }],
  ])('%s', (_title, periodRule, binding, receivedAt, expected) => {
    expectDeadline(periodRule, binding, receivedAt, expected);
  });
});

describe('computeBaseDeadline: dueAt is the end of the last local day, in UTC', () => {
  const fourWeeks: PeriodRule = { amount: 28, unit: 'calendar_days', countReceiptDay: false, roll: 'none' };
  const santiago: JurisdictionBinding = { code: 'CL', name: 'Chile', timeZone: 'America/Santiago', holidays: null };

  it.each<[title: string, rule: PeriodRule, binding: JurisdictionBinding, receivedAt: string, lastDay: string, dueAt: string]>([
    ['Berlin in winter (CET)', gdprMonth, germany, '2026-01-31T10:00:00Z', '2026-03-02', '2026-03-02T22:59:59.999Z'],
    ['Los Angeles in April (PDT)', ccpa45Days, california, '2026-03-01T20:00:00Z', '2026-04-14', '2026-04-15T06:59:59.999Z'],
    ['Berlin on the day summer time starts (Sun 29 Mar 2026)', fourWeeks, germany, '2026-03-01T10:00:00Z', '2026-03-29', '2026-03-29T21:59:59.999Z'],
    ['Berlin on the day summer time ends (Sun 25 Oct 2026)', fourWeeks, germany, '2026-09-27T10:00:00Z', '2026-10-25', '2026-10-25T22:59:59.999Z'],
    ['Los Angeles on the day daylight time starts (Sun 8 Mar 2026)', fourWeeks, california, '2026-02-08T20:00:00Z', '2026-03-08', '2026-03-09T06:59:59.999Z'],
    ['Los Angeles on the day daylight time ends (Sun 1 Nov 2026)', fourWeeks, california, '2026-10-04T19:00:00Z', '2026-11-01', '2026-11-02T07:59:59.999Z'],
    // Clocks go back from 00:00 to 23:00 on 4 Apr: the day ends after the second 23:59:59.999.
    ['Santiago where the last hour of the day repeats (Sat 4 Apr 2026)', fourWeeks, santiago, '2026-03-07T15:00:00Z', '2026-04-04', '2026-04-05T03:59:59.999Z'],
    // Midnight of 6 Sep does not exist (00:00 -> 01:00): the day ends just before 01:00 -03.
    ['Santiago where the next midnight is skipped (Sat 5 Sep 2026)', fourWeeks, santiago, '2026-08-08T16:00:00Z', '2026-09-05', '2026-09-06T03:59:59.999Z'],
  ])('%s', (_title, rule, binding, receivedAt, lastDay, dueAt) => {
    const deadline = computeBaseDeadline(rule, binding, new Date(receivedAt));
    expect(deadline.lastDay).toBe(lastDay);
    expect(deadline.dueAt.toISOString()).toBe(dueAt);
  });
});

describe('computeBaseDeadline: every built-in jurisdiction and period', () => {
  const jurisdictions = builtInPolicyPacks().flatMap((pack) => pack.jurisdictions.map((binding) => ({ pack, code: binding.code, binding })));

  it.each(jurisdictions)('$code has a known calendar and time zone and a deadline after receipt for each request type', ({ pack, binding }) => {
    for (const rule of REQUEST_TYPES.map((t) => ruleFor(pack, t).period)) {
      const deadline = computeBaseDeadline(rule, binding, new Date('2026-12-20T12:00:00Z'));
      expect(deadline.periodEnd > deadline.receiptDay).toBe(true);
      expect(deadline.lastDay >= deadline.periodEnd).toBe(true);
    }
  });
});

describe('computeBaseDeadline: bad input', () => {
  it('rejects an unknown time zone', () => {
    expect(() => computeBaseDeadline(gdprMonth, { ...germany, timeZone: 'Europe/Atlantis' }, new Date('2026-01-01T00:00:00Z'))).toThrow(RangeError);
  });

  it('rejects an invalid receipt instant', () => {
    expect(() => computeBaseDeadline(gdprMonth, germany, new Date('not a date'))).toThrow(RangeError);
  });

  it('rejects a period amount that is not a positive integer', () => {
    expect(() => computeBaseDeadline({ ...ccpa45Days, amount: 0 }, california, new Date('2026-01-01T00:00:00Z'))).toThrow(RangeError);
  });

  it('rejects a holiday calendar date-holidays does not know', () => {
    expect(() => computeBaseDeadline(gdprMonth, { ...germany, holidays: { country: 'XX' } }, new Date('2026-01-31T10:00:00Z'))).toThrow(/no calendar for XX/);
    expect(() => computeBaseDeadline(gdprMonth, { ...california, holidays: { country: 'US', state: 'ZZ' } }, new Date('2026-01-31T10:00:00Z'))).toThrow(/no calendar for US-ZZ/);
  });
});

describe('working-day calendar', () => {
  const calendar = (country: string, state?: string): JurisdictionBinding['holidays'] => (state ? { country, state } : { country });

  it.each<[title: string, date: string, holidays: JurisdictionBinding['holidays'], expected: boolean]>([
    ['German Unity Day in DE', '2026-10-03', calendar('DE'), true],
    ['3 October in FR', '2026-10-03', calendar('FR'), false],
    ['Christmas Eve in DE (a bank half day only)', '2026-12-24', calendar('DE'), false],
    ['Good Friday in DE', '2026-04-03', calendar('DE'), true],
    ['Good Friday in IE (a bank holiday only)', '2026-04-03', calendar('IE'), false],
    ['Summer bank holiday in England (typed public)', '2026-08-31', calendar('GB', 'ENG'), true],
    ['31 Aug in Scotland, whose summer bank holiday is 3 Aug', '2026-08-31', calendar('GB', 'SCT'), false],
    ['Summer bank holiday in Scotland', '2026-08-03', calendar('GB', 'SCT'), true],
    ['2 January in RO (second day of a two-day holiday)', '2026-01-02', calendar('RO'), true],
    ['Day after Thanksgiving in California', '2026-11-27', calendar('US', 'CA'), true],
    ['Christmas with no calendar', '2026-12-25', null, false],
  ])('isPublicHoliday: %s', (_title, date, holidays, expected) => {
    expect(isPublicHoliday(date, holidays)).toBe(expected);
  });

  it.each<[title: string, date: string, holidays: JurisdictionBinding['holidays'], saturdayIsWorking: boolean, expected: boolean]>([
    ['a plain Monday', '2026-03-02', calendar('DE'), false, true],
    ['a Saturday', '2026-02-28', calendar('DE'), false, false],
    ['a Saturday that counts as working', '2026-02-28', calendar('DE'), true, true],
    ['a Saturday holiday that counts as working', '2026-10-03', calendar('DE'), true, false],
    ['a Sunday that counts as working on Saturdays', '2026-03-01', calendar('DE'), true, false],
    ['a weekday holiday', '2026-12-25', calendar('DE'), false, false],
    ['a weekday holiday with no calendar', '2026-12-25', null, false, true],
  ])('isWorkingDay: %s', (_title, date, holidays, saturdayIsWorking, expected) => {
    expect(isWorkingDay(date, holidays, saturdayIsWorking)).toBe(expected);
  });

  it('rejects a date that is not yyyy-mm-dd', () => {
    expect(() => isWorkingDay('2026-02-30', null)).toThrow(RangeError);
    expect(() => isPublicHoliday('2026-10-03T00:00', calendar('DE'))).toThrow(RangeError);
  });
});
