import { type JurisdictionBinding, type PeriodRule, type RequestType, resolveJurisdiction, ruleFor } from '@dsar/contracts';
import { type Case, type Expected, expectDeadline } from './deadline-test-kit';

/**
 * Base deadlines of every built-in jurisdiction, from the rules of its current
 * pack. Every expected date was worked out by hand and checked independently
 * of this code: day arithmetic, weekdays and time zones with GNU date and
 * tzdata (`date -d '2026-03-05 +45 days' +%F\ %a`, `TZ=Europe/London date -d
 * 2026-03-31T23:30:00Z +%F`), public holidays with date-holidays' own list.
 * Weekdays are noted where they decide the result.
 */
function resolved(code: string) {
  const found = resolveJurisdiction(code);
  if (!found) throw new Error(`no built-in pack covers ${code}`);
  return found;
}

interface Subject {
  binding: JurisdictionBinding;
  period: (type?: RequestType) => PeriodRule;
  appeal: () => PeriodRule;
}

function subject(code: string): Subject {
  const { pack, binding } = resolved(code);
  return {
    binding,
    period: (type = 'access') => ruleFor(pack, type).period,
    appeal: () => {
      if (!pack.appeal) throw new Error(`${pack.packId} has no appeal rule`);
      return pack.appeal.response;
    },
  };
}

const run = (_title: string, rule: PeriodRule, binding: JurisdictionBinding, receivedAt: string, expected: Expected) => {
  expectDeadline(rule, binding, receivedAt, expected);
};
const dates = (receiptDay: string, periodEnd: string, lastDay = periodEnd): Expected => ({ receiptDay, periodEnd, lastDay });

describe('each jurisdiction code resolves to the pack of its law', () => {
  it.each([
    ['EU', 'eu-gdpr'],
    ['ES', 'eu-gdpr'],
    ['GB', 'uk-gdpr'],
    ['GB-ENG', 'uk-gdpr'],
    ['GB-WLS', 'uk-gdpr'],
    ['GB-SCT', 'uk-gdpr'],
    ['GB-NIR', 'uk-gdpr'],
    ['US-CA', 'us-ca-ccpa'],
    ['US-VA', 'us-va-vcdpa'],
    ['US-CO', 'us-co-cpa'],
    ['US-CT', 'us-ct-ctdpa'],
    ['US-UT', 'us-ut-ucpa'],
    ['US-TX', 'us-tx-tdpsa'],
    ['US-OR', 'us-or-ocpa'],
    ['BR', 'br-lgpd'],
    ['CA', 'ca-pipeda'],
    ['CA-QC', 'ca-qc-law25'],
    ['AU', 'au-app'],
    ['SG', 'sg-pdpa'],
    ['ZA', 'za-popia'],
    ['CH', 'ch-nfadp'],
    ['JP', 'jp-appi'],
    ['IN', 'in-dpdp'],
  ])('%s -> %s', (code, packId) => {
    expect(resolved(code).pack.packId).toBe(packId);
  });

  it('GB alone counts on the England calendar', () => {
    expect(resolved('GB').binding.holidays).toEqual({ country: 'GB', state: 'ENG' });
  });
});

describe('UK GDPR: one calendar month, weekend and bank holiday roll (ICO)', () => {
  const gb = subject('GB');
  const eng = subject('GB-ENG');
  const wls = subject('GB-WLS');
  const sct = subject('GB-SCT');
  const nir = subject('GB-NIR');
  const month = gb.period();

  it.each<Case>([
    // ICO examples.
    ['ICO: received 1 Jan (a bank holiday) -> 1 Feb (Mon 1 Feb 2027)', month, gb.binding, '2027-01-01T10:00:00Z', dates('2027-01-01', '2027-02-01')],
    ['ICO: Mon 25 Nov 2024 -> 25 Dec, 26 Dec bank holidays -> Fri 27 Dec', month, gb.binding, '2024-11-25T10:00:00Z', dates('2024-11-25', '2024-12-25', '2024-12-27')],
    ['ICO: 31 Jan 2026 -> 28 Feb (Sat) -> next Monday 2 Mar', month, gb.binding, '2026-01-31T10:00:00Z', dates('2026-01-31', '2026-02-28', '2026-03-02')],
    ['ICO: 31 Jan 2027 -> 28 Feb (Sun) -> next Monday 1 Mar', month, gb.binding, '2027-01-31T10:00:00Z', dates('2027-01-31', '2027-02-28', '2027-03-01')],
    ['ICO: 31 Jan 2028 -> 29 Feb in a leap year (Tue)', month, gb.binding, '2028-01-31T10:00:00Z', dates('2028-01-31', '2028-02-29')],
    ['ICO: 3 Sep -> 3 Oct (Tue 3 Oct 2028)', month, gb.binding, '2028-09-03T10:00:00Z', dates('2028-09-03', '2028-10-03')],
    ['ICO: 31 Mar -> 30 Apr (Thu 30 Apr 2026)', month, gb.binding, '2026-03-31T10:00:00Z', dates('2026-03-31', '2026-04-30')],
    // 25 Dec 2027 (Sat), 26 (Sun), 27 and 28 Dec substitute bank holidays.
    ['25 Nov 2027 -> Sat 25 Dec, substitute days 27-28 Dec -> Wed 29 Dec', month, gb.binding, '2027-11-25T10:00:00Z', dates('2027-11-25', '2027-12-25', '2027-12-29')],
  ])('%s', run);

  it.each<Case>([
    ['ENG: Fri 2 Jan 2026 is a working day', month, eng.binding, '2025-12-02T10:00:00Z', dates('2025-12-02', '2026-01-02')],
    ['SCT: Fri 2 Jan 2026 is a bank holiday -> Mon 5 Jan', month, sct.binding, '2025-12-02T10:00:00Z', dates('2025-12-02', '2026-01-02', '2026-01-05')],
    ['ENG: Sat 2 Jan 2027 -> Mon 4 Jan', month, eng.binding, '2026-12-02T10:00:00Z', dates('2026-12-02', '2027-01-02', '2027-01-04')],
    ['SCT: Sat 2 Jan 2027, Mon 4 Jan its substitute -> Tue 5 Jan', month, sct.binding, '2026-12-02T10:00:00Z', dates('2026-12-02', '2027-01-02', '2027-01-05')],
    ['ENG: Mon 30 Nov 2026 is a working day', month, eng.binding, '2026-10-30T10:00:00Z', dates('2026-10-30', '2026-11-30')],
    ["SCT: Mon 30 Nov 2026 is St Andrew's Day -> Tue 1 Dec", month, sct.binding, '2026-10-30T10:00:00Z', dates('2026-10-30', '2026-11-30', '2026-12-01')],
    ['WLS: Easter Monday 6 Apr 2026 -> Tue 7 Apr', month, wls.binding, '2026-03-06T10:00:00Z', dates('2026-03-06', '2026-04-06', '2026-04-07')],
    ['SCT: Easter Monday is not a Scottish bank holiday', month, sct.binding, '2026-03-06T10:00:00Z', dates('2026-03-06', '2026-04-06')],
    ["NIR: St Patrick's Day Tue 17 Mar 2026 -> Wed 18 Mar", month, nir.binding, '2026-02-17T10:00:00Z', dates('2026-02-17', '2026-03-17', '2026-03-18')],
    ['ENG: 17 Mar 2026 is a working day', month, eng.binding, '2026-02-17T10:00:00Z', dates('2026-02-17', '2026-03-17')],
    ['ENG: summer bank holiday Mon 31 Aug 2026 -> Tue 1 Sep', month, eng.binding, '2026-07-31T10:00:00Z', dates('2026-07-31', '2026-08-31', '2026-09-01')],
    ['SCT: 31 Aug 2026 is a working day (summer bank holiday was 3 Aug)', month, sct.binding, '2026-07-31T10:00:00Z', dates('2026-07-31', '2026-08-31')],
  ])('%s', run);

  it.each<Case>([
    // British Summer Time began on 29 Mar 2026.
    ['23:30Z on 31 Mar is 00:30 BST on 1 Apr -> Fri 1 May', month, gb.binding, '2026-03-31T23:30:00Z', dates('2026-04-01', '2026-05-01')],
    ['22:59:59Z on 31 Mar is still 31 Mar in London -> 30 Apr', month, gb.binding, '2026-03-31T22:59:59Z', dates('2026-03-31', '2026-04-30')],
  ])('%s', run);

  it('uses the same month for every request type', () => {
    for (const type of ['deletion', 'rectification', 'portability', 'restriction', 'objection', 'opt_out'] as const) expect(gb.period(type)).toEqual(month);
  });
});

describe('EU GDPR member states: one month, rolled off the member state’s holidays', () => {
  it.each<Case>([
    ['ES: Sun 6 Dec 2026 (Constitution Day) -> Mon 7 Dec', subject('ES').period(), subject('ES').binding, '2026-11-06T10:00:00Z', dates('2026-11-06', '2026-12-06', '2026-12-07')],
    ['ES: Tue 8 Dec 2026 (Immaculate Conception) -> Wed 9 Dec', subject('ES').period(), subject('ES').binding, '2026-11-08T10:00:00Z', dates('2026-11-08', '2026-12-08', '2026-12-09')],
    ['IT: Tue 2 Jun 2026 (Festa della Repubblica) -> Wed 3 Jun', subject('IT').period(), subject('IT').binding, '2026-05-02T10:00:00Z', dates('2026-05-02', '2026-06-02', '2026-06-03')],
    ["NL: Mon 27 Apr 2026 (King's Day) -> Tue 28 Apr", subject('NL').period(), subject('NL').binding, '2026-03-27T10:00:00Z', dates('2026-03-27', '2026-04-27', '2026-04-28')],
    ['PL: Wed 11 Nov 2026 (Independence Day) -> Thu 12 Nov', subject('PL').period(), subject('PL').binding, '2026-10-11T10:00:00Z', dates('2026-10-11', '2026-11-11', '2026-11-12')],
    ['SE: Sat 6 Jun 2026 (National Day) -> Mon 8 Jun', subject('SE').period(), subject('SE').binding, '2026-05-06T10:00:00Z', dates('2026-05-06', '2026-06-06', '2026-06-08')],
    ["IE: Tue 17 Mar 2026 (St Patrick's Day) -> Wed 18 Mar", subject('IE').period(), subject('IE').binding, '2026-02-17T10:00:00Z', dates('2026-02-17', '2026-03-17', '2026-03-18')],
  ])('%s', run);
});

describe('US state laws: 45 days after receipt', () => {
  const va = subject('US-VA');
  const co = subject('US-CO');
  const ct = subject('US-CT');
  const ut = subject('US-UT');
  const tx = subject('US-TX');
  const or = subject('US-OR');

  it.each<Case>([
    ['VA: 5 Mar + 45 = Sun 19 Apr, no roll', va.period(), va.binding, '2026-03-05T15:00:00Z', dates('2026-03-05', '2026-04-19')],
    ['VA: 20 May + 45 = Sat 4 Jul (Independence Day), no roll', va.period(), va.binding, '2026-05-20T15:00:00Z', dates('2026-05-20', '2026-07-04')],
    ['VA: 04:30Z on 2 Mar is 23:30 EST on 1 Mar -> 15 Apr', va.period(), va.binding, '2026-03-02T04:30:00Z', dates('2026-03-01', '2026-04-15')],
    ['CO: 5 Mar + 45 = Sun 19 Apr -> Mon 20 Apr (C.R.S. 2-4-108)', co.period(), co.binding, '2026-03-05T18:00:00Z', dates('2026-03-05', '2026-04-19', '2026-04-20')],
    ['CO: 20 May + 45 = Sat 4 Jul -> Mon 6 Jul', co.period(), co.binding, '2026-05-20T18:00:00Z', dates('2026-05-20', '2026-07-04', '2026-07-06')],
    ['CO: 12 Oct + 45 = Thanksgiving Thu 26 Nov -> Fri 27 Nov (a working day in Colorado)', co.period(), co.binding, '2026-10-12T18:00:00Z', dates('2026-10-12', '2026-11-26', '2026-11-27')],
    ['CO: 21 Aug + 45 = Cabrini Day Mon 5 Oct -> Tue 6 Oct', co.period(), co.binding, '2026-08-21T18:00:00Z', dates('2026-08-21', '2026-10-05', '2026-10-06')],
    ['CO: 05:30Z on 1 Jul is 23:30 MDT on 30 Jun -> Fri 14 Aug', co.period(), co.binding, '2026-07-01T05:30:00Z', dates('2026-06-30', '2026-08-14')],
    ['CT: 15 Jan + 45 = Sun 1 Mar, no roll', ct.period(), ct.binding, '2026-01-15T15:00:00Z', dates('2026-01-15', '2026-03-01')],
    ['CT: 15 Jan 2028 + 45 = 29 Feb (leap year)', ct.period(), ct.binding, '2028-01-15T15:00:00Z', dates('2028-01-15', '2028-02-29')],
    ['CT: 10 Nov + 45 = Christmas Day (Fri), no roll', ct.period(), ct.binding, '2026-11-10T15:00:00Z', dates('2026-11-10', '2026-12-25')],
    ['UT: 5 Mar + 45 = Sun 19 Apr, no roll', ut.period(), ut.binding, '2026-03-05T18:00:00Z', dates('2026-03-05', '2026-04-19')],
    ['UT: 11 Nov + 45 = Sat 26 Dec, no roll', ut.period(), ut.binding, '2026-11-11T18:00:00Z', dates('2026-11-11', '2026-12-26')],
    ['UT: 06:30Z on 1 Jan 2026 is 23:30 MST on 31 Dec 2025 -> Sat 14 Feb', ut.period(), ut.binding, '2026-01-01T06:30:00Z', dates('2025-12-31', '2026-02-14')],
    ['TX: 5 Mar + 45 = Sun 19 Apr -> Mon 20 Apr (Gov’t Code 311.014)', tx.period(), tx.binding, '2026-03-05T18:00:00Z', dates('2026-03-05', '2026-04-19', '2026-04-20')],
    ['TX: 9 Nov + 45 = Christmas Eve; 24-26 Dec holidays, 27 Sun -> Mon 28 Dec', tx.period(), tx.binding, '2026-11-09T18:00:00Z', dates('2026-11-09', '2026-12-24', '2026-12-28')],
    ['TX: 12 Oct + 45 = Thanksgiving; the day after is a Texas holiday -> Mon 30 Nov', tx.period(), tx.binding, '2026-10-12T18:00:00Z', dates('2026-10-12', '2026-11-26', '2026-11-30')],
    ['TX: 05:30Z on 6 Mar is 23:30 CST on 5 Mar -> Mon 20 Apr', tx.period(), tx.binding, '2026-03-06T05:30:00Z', dates('2026-03-05', '2026-04-19', '2026-04-20')],
    ['OR: 20 May + 45 = Sat 4 Jul, no roll', or.period(), or.binding, '2026-05-20T18:00:00Z', dates('2026-05-20', '2026-07-04')],
    ['OR: 5 Mar + 45 = Sun 19 Apr, no roll', or.period(), or.binding, '2026-03-05T18:00:00Z', dates('2026-03-05', '2026-04-19')],
    ['OR: 06:30Z on 1 Nov is 23:30 PDT on 31 Oct -> Tue 15 Dec', or.period(), or.binding, '2026-11-01T06:30:00Z', dates('2026-10-31', '2026-12-15')],
  ])('%s', run);

  it.each<Case>([
    ['VA appeal: 5 Mar + 60 = Mon 4 May', va.appeal(), va.binding, '2026-03-05T15:00:00Z', dates('2026-03-05', '2026-05-04')],
    ['CO appeal: 5 Mar + 45 = Sun 19 Apr -> Mon 20 Apr', co.appeal(), co.binding, '2026-03-05T18:00:00Z', dates('2026-03-05', '2026-04-19', '2026-04-20')],
    ['CT appeal: 27 Oct + 60 = Sat 26 Dec, no roll', ct.appeal(), ct.binding, '2026-10-27T15:00:00Z', dates('2026-10-27', '2026-12-26')],
    ['TX appeal: 27 Oct + 60 = Sat 26 Dec (a Texas holiday), 27 Sun -> Mon 28 Dec', tx.appeal(), tx.binding, '2026-10-27T18:00:00Z', dates('2026-10-27', '2026-12-26', '2026-12-28')],
    ['OR appeal: 20 May + 45 = Sat 4 Jul, no roll', or.appeal(), or.binding, '2026-05-20T18:00:00Z', dates('2026-05-20', '2026-07-04')],
  ])('%s', run);

  it('Utah gives no appeal to the controller', () => {
    expect(resolved('US-UT').pack.appeal).toBeNull();
  });
});

describe('Brazil LGPD: 15 days for access, the same 15 days as a service target for the other rights', () => {
  const br = subject('BR');

  it.each<Case>([
    ['access: 1 Mar + 15 = Mon 16 Mar', br.period('access'), br.binding, '2026-03-01T15:00:00Z', dates('2026-03-01', '2026-03-16')],
    ['access: 6 Apr + 15 = Tiradentes Tue 21 Apr, no roll', br.period('access'), br.binding, '2026-04-06T15:00:00Z', dates('2026-04-06', '2026-04-21')],
    ['access: 02:30Z on 2 Mar is 23:30 on 1 Mar in São Paulo -> 16 Mar', br.period('access'), br.binding, '2026-03-02T02:30:00Z', dates('2026-03-01', '2026-03-16')],
    ['access: 03:00Z on 2 Mar is midnight of 2 Mar in São Paulo -> 17 Mar', br.period('access'), br.binding, '2026-03-02T03:00:00Z', dates('2026-03-02', '2026-03-17')],
    ['deletion: 17 Dec + 15 = New Year’s Day 2027, no roll', br.period('deletion'), br.binding, '2026-12-17T15:00:00Z', dates('2026-12-17', '2027-01-01')],
  ])('%s', run);

  it('only access is a statutory deadline', () => {
    const { pack } = resolved('BR');
    expect(ruleFor(pack, 'access').basis).toBe('statute');
    expect(ruleFor(pack, 'deletion').basis).toBe('service_target');
    expect(ruleFor(pack, 'deletion').period).toEqual(ruleFor(pack, 'access').period);
  });
});

describe('Canada: PIPEDA rolls Sundays and holidays but not Saturdays; Quebec does not roll', () => {
  const ca = subject('CA');
  const qc = subject('CA-QC');

  it.each<Case>([
    ['CA: 1 Jan + 30 = Sat 31 Jan stays (Saturday is not a holiday)', ca.period(), ca.binding, '2026-01-01T17:00:00Z', dates('2026-01-01', '2026-01-31')],
    ['CA: 2 Jan + 30 = Sun 1 Feb -> Mon 2 Feb', ca.period(), ca.binding, '2026-01-02T17:00:00Z', dates('2026-01-02', '2026-02-01', '2026-02-02')],
    ['CA: 1 Jun + 30 = Canada Day Wed 1 Jul -> Thu 2 Jul', ca.period(), ca.binding, '2026-06-01T16:00:00Z', dates('2026-06-01', '2026-07-01', '2026-07-02')],
    ['CA: 4 Mar + 30 = Good Friday 3 Apr -> Sat 4 Apr', ca.period(), ca.binding, '2026-03-04T17:00:00Z', dates('2026-03-04', '2026-04-03', '2026-04-04')],
    ['CA: 8 Aug + 30 = Labour Day Mon 7 Sep -> Tue 8 Sep', ca.period(), ca.binding, '2026-08-08T16:00:00Z', dates('2026-08-08', '2026-09-07', '2026-09-08')],
    // A known gap the pack notes: date-holidays' national list has no Victoria Day.
    ['CA: Victoria Day Mon 18 May is not in the national calendar, no roll', ca.period(), ca.binding, '2026-04-18T16:00:00Z', dates('2026-04-18', '2026-05-18')],
    ['CA: 03:30Z on 1 Sep is 23:30 EDT on 31 Aug -> Wed 30 Sep', ca.period(), ca.binding, '2026-09-01T03:30:00Z', dates('2026-08-31', '2026-09-30')],
    ['QC: 25 May + 30 = Fête nationale Wed 24 Jun, no roll', qc.period(), qc.binding, '2026-05-25T16:00:00Z', dates('2026-05-25', '2026-06-24')],
    ['QC: 1 Jan + 30 = Sat 31 Jan, no roll', qc.period(), qc.binding, '2026-01-01T17:00:00Z', dates('2026-01-01', '2026-01-31')],
  ])('%s', run);
});

describe('South Africa: 30 days, Sundays and public holidays roll, Saturdays do not', () => {
  const za = subject('ZA');

  it.each<Case>([
    ['1 Jan + 30 = Sat 31 Jan stays', za.period(), za.binding, '2026-01-01T10:00:00Z', dates('2026-01-01', '2026-01-31')],
    ['2 Jan + 30 = Sun 1 Feb -> Mon 2 Feb', za.period(), za.binding, '2026-01-02T10:00:00Z', dates('2026-01-02', '2026-02-01', '2026-02-02')],
    ['7 Mar + 30 = Family Day Mon 6 Apr -> Tue 7 Apr', za.period(), za.binding, '2026-03-07T10:00:00Z', dates('2026-03-07', '2026-04-06', '2026-04-07')],
    ["10 Jul + 30 = Women's Day Sun 9 Aug, Mon 10 Aug a public holiday -> Tue 11 Aug", za.period(), za.binding, '2026-07-10T10:00:00Z', dates('2026-07-10', '2026-08-09', '2026-08-11')],
    ['26 Nov + 30 = Day of Goodwill Sat 26 Dec: a Saturday holiday rolls -> Mon 28 Dec', za.period(), za.binding, '2026-11-26T10:00:00Z', dates('2026-11-26', '2026-12-26', '2026-12-28')],
    ['19 Feb + 30 = Human Rights Day Sat 21 Mar -> Mon 23 Mar', za.period(), za.binding, '2026-02-19T10:00:00Z', dates('2026-02-19', '2026-03-21', '2026-03-23')],
    ['22:30Z on 28 Feb is 00:30 SAST on 1 Mar -> Tue 31 Mar', za.period(), za.binding, '2026-02-28T22:30:00Z', dates('2026-03-01', '2026-03-31')],
  ])('%s', run);
});

describe('Switzerland: 30 days, Saturdays, Sundays and holidays roll', () => {
  const ch = subject('CH');

  it.each<Case>([
    ['1 Jan + 30 = Sat 31 Jan -> Mon 2 Feb', ch.period(), ch.binding, '2026-01-01T10:00:00Z', dates('2026-01-01', '2026-01-31', '2026-02-02')],
    ['4 Mar + 30 = Good Friday 3 Apr, weekend, Easter Monday -> Tue 7 Apr', ch.period(), ch.binding, '2026-03-04T10:00:00Z', dates('2026-03-04', '2026-04-03', '2026-04-07')],
    ['14 Apr + 30 = Ascension Thu 14 May -> Fri 15 May', ch.period(), ch.binding, '2026-04-14T10:00:00Z', dates('2026-04-14', '2026-05-14', '2026-05-15')],
    ['2 Jul + 30 = National Day Sat 1 Aug -> Mon 3 Aug', ch.period(), ch.binding, '2026-07-02T10:00:00Z', dates('2026-07-02', '2026-08-01', '2026-08-03')],
    ['22:30Z on 31 Mar is 00:30 CEST on 1 Apr -> Fri 1 May (not a federal holiday)', ch.period(), ch.binding, '2026-03-31T22:30:00Z', dates('2026-04-01', '2026-05-01')],
  ])('%s', run);
});

describe('Service targets and other day periods without a roll', () => {
  const au = subject('AU');
  const sg = subject('SG');
  const jp = subject('JP');
  const india = subject('IN');

  it.each<Case>([
    ['AU: 26 Mar + 30 = Anzac Day Sat 25 Apr, no roll', au.period(), au.binding, '2026-03-26T01:00:00Z', dates('2026-03-26', '2026-04-25')],
    ['AU: 25 Nov + 30 = Christmas Day, no roll', au.period(), au.binding, '2026-11-25T01:00:00Z', dates('2026-11-25', '2026-12-25')],
    ['AU: 13:30Z on 31 Jan is 00:30 AEDT on 1 Feb -> 3 Mar', au.period(), au.binding, '2026-01-31T13:30:00Z', dates('2026-02-01', '2026-03-03')],
    ['AU: 12:59Z on 31 Jan is 23:59 AEDT on 31 Jan -> 2 Mar', au.period(), au.binding, '2026-01-31T12:59:00Z', dates('2026-01-31', '2026-03-02')],
    ['SG: 10 Jul + 30 = National Day Sun 9 Aug, no roll', sg.period(), sg.binding, '2026-07-10T04:00:00Z', dates('2026-07-10', '2026-08-09')],
    ['SG: 31 Jan + 30 = 2 Mar (February has 28 days)', sg.period(), sg.binding, '2026-01-31T04:00:00Z', dates('2026-01-31', '2026-03-02')],
    ['SG: 16:30Z on 28 Feb is 00:30 on 1 Mar in Singapore -> 31 Mar', sg.period(), sg.binding, '2026-02-28T16:30:00Z', dates('2026-03-01', '2026-03-31')],
    ['JP: 22 Apr + 14 = Wed 6 May (substitute holiday), no roll', jp.period(), jp.binding, '2026-04-22T03:00:00Z', dates('2026-04-22', '2026-05-06')],
    ["JP: deletion 9 Feb + 14 = Emperor's Birthday Mon 23 Feb, no roll", jp.period('deletion'), jp.binding, '2026-02-09T03:00:00Z', dates('2026-02-09', '2026-02-23')],
    ['JP: 15:30Z on 20 Dec is 00:30 JST on 21 Dec -> 4 Jan 2027', jp.period(), jp.binding, '2026-12-20T15:30:00Z', dates('2026-12-21', '2027-01-04')],
    ['JP: 14:59Z on 20 Dec is 23:59 JST on 20 Dec -> Sun 3 Jan 2027', jp.period(), jp.binding, '2026-12-20T14:59:00Z', dates('2026-12-20', '2027-01-03')],
    ['IN: 16 Jul + 30 = Independence Day Sat 15 Aug, no roll', india.period(), india.binding, '2026-07-16T06:00:00Z', dates('2026-07-16', '2026-08-15')],
    ['IN: 18:45Z on 31 Jan is 00:15 IST on 1 Feb -> 3 Mar', india.period(), india.binding, '2026-01-31T18:45:00Z', dates('2026-02-01', '2026-03-03')],
    ['IN: 18:00Z on 31 Jan is 23:30 IST on 31 Jan -> 2 Mar', india.period(), india.binding, '2026-01-31T18:00:00Z', dates('2026-01-31', '2026-03-02')],
  ])('%s', run);
});
