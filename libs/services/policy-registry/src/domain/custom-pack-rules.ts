import { DateTime, IANAZone } from 'luxon';
import {
  compareVersions,
  type ExtensionRule,
  PAUSE_REASONS,
  type PauseRule,
  type JurisdictionBinding,
  type PeriodRule,
  type PolicyPack,
  REQUEST_TYPES,
  type RequestRule,
  type RequestType,
  type RollRule,
  ruleFor,
} from '@dsar/contracts';
import { appealDueAt, type ClockEvent, computeBaseDeadline, computeClock, describePeriod, holidayCalendarExists, isPublicHoliday } from '@dsar/platform/deadline';

/**
 * The rules policy-registry applies when a tenant registers a custom policy pack.
 * Each check returns findings; the application decides which problem to raise
 * from them (CUSTOM_PACK_INVALID, CUSTOM_PACK_LESS_PROTECTIVE, ...).
 */

/** One thing wrong with a custom pack: where (a path into the request body) and why. */
export interface Finding {
  readonly field: string;
  readonly message: string;
}

export type ReleaseType = 'major' | 'minor' | 'patch';

export type ReleaseStep = { readonly kind: 'ok' } | { readonly kind: 'not_newer'; readonly latest: string } | { readonly kind: 'mismatch'; readonly expected: string };

// ---------------------------------------------------------------------------
// Consistency: can the pack be used at all?
// ---------------------------------------------------------------------------

/**
 * What makes a well-formed custom pack unusable: it does not match the body it came in,
 * does not cover the body's jurisdiction, takes a built-in pack's name, or names a time
 * zone or holiday calendar the deadline engine would fail on.
 */
export function consistencyFindings(body: { readonly jurisdiction: string; readonly name: string; readonly version: string }, pack: PolicyPack, builtInPackIds: ReadonlySet<string>): Finding[] {
  return [...identityFindings(body, pack, builtInPackIds), ...pack.jurisdictions.flatMap((binding, i) => bindingFindings(binding, `pack.jurisdictions[${i}]`))];
}

function identityFindings(body: { jurisdiction: string; name: string; version: string }, pack: PolicyPack, builtInPackIds: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  if (pack.packId !== body.name) {
    findings.push({ field: 'pack.packId', message: `The pack's packId "${pack.packId}" differs from the name "${body.name}" it is registered under.` });
  }
  if (pack.version !== body.version) {
    findings.push({ field: 'pack.version', message: `The pack's version ${pack.version} differs from the version ${body.version} it is registered as.` });
  }
  const code = body.jurisdiction.trim().toUpperCase();
  if (!pack.jurisdictions.some((j) => j.code === code)) {
    findings.push({ field: 'jurisdiction', message: `The pack does not cover ${code}; it covers ${pack.jurisdictions.map((j) => j.code).join(', ')}.` });
  }
  // The catalogue lets the built-in source own a pack id, so a custom pack of that name would never be found.
  if (builtInPackIds.has(body.name)) {
    findings.push({ field: 'name', message: `"${body.name}" is the id of a built-in pack; a custom pack needs a name of its own.` });
  }
  return findings;
}

function bindingFindings(binding: JurisdictionBinding, path: string): Finding[] {
  const findings: Finding[] = [];
  if (!IANAZone.isValidZone(binding.timeZone)) {
    findings.push({ field: `${path}.timeZone`, message: `"${binding.timeZone}" is not an IANA time zone (such as Europe/Berlin).` });
  }
  if (binding.holidays && !holidayCalendarExists(binding.holidays)) {
    findings.push({ field: `${path}.holidays`, message: `date-holidays has no public-holiday calendar ${calendarName(binding.holidays)}.` });
  }
  return findings;
}

function calendarName({ country, state }: NonNullable<JurisdictionBinding['holidays']>): string {
  return state === undefined ? country : `${country}-${state}`;
}

function usableBinding(binding: JurisdictionBinding | undefined): binding is JurisdictionBinding {
  return binding !== undefined && bindingFindings(binding, '').length === 0;
}

// ---------------------------------------------------------------------------
// Versions
// ---------------------------------------------------------------------------

/**
 * Whether `next` may follow `latest` as a release of `releaseType`. Registered versions are never
 * replaced, so the next one must be newer; and the declared release type must be the step taken, so
 * that MAJOR keeps meaning "the same request may get another deadline".
 */
export function releaseStep(latest: string | undefined, next: string, releaseType: ReleaseType): ReleaseStep {
  if (latest === undefined) return { kind: 'ok' };
  if (compareVersions(next, latest) <= 0) return { kind: 'not_newer', latest };
  const expected = bumped(latest, releaseType);
  return compareVersions(next, expected) === 0 ? { kind: 'ok' } : { kind: 'mismatch', expected };
}

function bumped(version: string, releaseType: ReleaseType): string {
  const [major, minor, patch] = version.split('.').map(Number);
  if (releaseType === 'major') return `${major + 1}.0.0`;
  if (releaseType === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

// ---------------------------------------------------------------------------
// Protection: does the custom pack give the data subject less than the law?
// ---------------------------------------------------------------------------

/**
 * Where a custom pack gives a data subject less than the built-in statutory pack of
 * `jurisdiction`: a later deadline, a larger, uncapped, additional or more frequent extension, a
 * missing or later acknowledgement or refusal notice, or a missing or later appeal answer.
 *
 * Deadlines are compared by running the deadline engine on the same receipt instants under both
 * packs, each on its own calendar for the jurisdiction, rather than by comparing rule fields:
 * "1 month" against "30 days", or a roll rule against a holiday calendar, has no answer in the
 * abstract. Unextended deadlines are compared at noon on every day of 2026 (and around the leap
 * day of 2028), extended ones on chosen days (see sampledReceiptDays). Only rules the law
 * itself sets (basis `statute`) bind; a service target is the pack's choice, and a custom pack
 * may always be shorter. At most one finding per field, with the first receipt that shows it.
 *
 * Expects a pack that passed `consistencyFindings`; a custom pack without a usable binding for
 * the jurisdiction is compared on the law's calendar.
 */
export function protectionFindings(custom: PolicyPack, statutory: PolicyPack, jurisdiction: string): Finding[] {
  const code = jurisdiction.trim().toUpperCase();
  const lawBinding = statutory.jurisdictions.find((j) => j.code === code);
  if (!lawBinding) throw new RangeError(`${statutory.packId}@${statutory.version} does not cover ${code}`);
  const customBinding = custom.jurisdictions.find((j) => j.code === code);
  const comparison = new Comparison({ pack: statutory, binding: lawBinding }, { pack: custom, binding: usableBinding(customBinding) ? customBinding : lawBinding });
  for (const type of REQUEST_TYPES) compareRequestType(comparison, type);
  compareAppeal(comparison);
  return [...clockModeFindings(custom, statutory), ...pauseFindings(custom, statutory), ...comparison.findings()];
}

/**
 * How long a pause rule holds the clock: `ignore` lets it run, `suspend` adds the paused days, `restart` runs the
 * whole period again. A custom pack may hold it no longer than the law.
 */
const PAUSE_HOLD: Record<PauseRule, number> = { ignore: 0, suspend: 1, restart: 2 };

function pauseFindings(custom: PolicyPack, statutory: PolicyPack): Finding[] {
  const findings: Finding[] = [];
  for (const type of REQUEST_TYPES) {
    const lawRule = ruleFor(statutory, type);
    if (lawRule.basis !== 'statute') continue;
    const customRule = ruleFor(custom, type);
    for (const reason of PAUSE_REASONS) {
      const field = `${memberField(custom, type, 'pauses')}.${reason}`;
      if (PAUSE_HOLD[customRule.pauses[reason]] > PAUSE_HOLD[lawRule.pauses[reason]] && !findings.some((f) => f.field === field)) {
        findings.push({ field, message: `${type}: a ${reason} pause would ${customRule.pauses[reason]} the clock, where ${statutory.packId} ${statutory.version} says ${lawRule.pauses[reason]}.` });
      }
    }
  }
  return findings;
}

/** Clock mode `active` starts the period only once identity is established: a pack may allow it only where the law does. */
function clockModeFindings(custom: PolicyPack, statutory: PolicyPack): Finding[] {
  const extra = custom.clockModes.allowed.filter((m) => !statutory.clockModes.allowed.includes(m));
  return extra.length === 0 ? [] : [{ field: 'pack.clockModes.allowed', message: `allows clock mode ${extra.join(', ')}, which ${statutory.packId} ${statutory.version} does not.` }];
}

interface Side {
  readonly pack: PolicyPack;
  readonly binding: JurisdictionBinding;
}

interface Receipt {
  /** The local day of receipt in the law's time zone, for messages. */
  readonly day: string;
  readonly at: Date;
}

/** A due date at each receipt of a list, computed when first asked for. */
type Series = (index: number) => Date | null;

/**
 * A due date depends only on the calendar, the rule and the receipt. The built-in packs are few,
 * so the law's dates are kept for the life of the process and a custom pack's for one comparison;
 * a custom pack mostly keeps the law's rules, so most of its dates are found among the law's.
 */
const lawDates = new Map<string, Date | null>();

/** The appeal clock does not depend on the request type, so one type stands for all. */
const APPEAL_REQUEST_TYPE: RequestType = REQUEST_TYPES[0];

/** One comparison: both sides, the receipts and the findings so far. */
class Comparison {
  readonly lawId: string;
  /** Whether both sides count on the same local calendar, so that rule fields can be compared directly. */
  readonly sameCalendar: boolean;
  private readonly byField = new Map<string, Finding>();
  private readonly customDates = new Map<string, Date | null>();
  private dailyReceipts: readonly Receipt[] | undefined;
  private sampledReceipts: readonly Receipt[] | undefined;

  constructor(
    readonly law: Side,
    readonly custom: Side,
  ) {
    this.lawId = `${law.pack.packId}@${law.pack.version}`;
    this.sameCalendar = same(calendarOf(law.binding), calendarOf(custom.binding));
  }

  // Both lists are made when first needed: a pack that keeps or shortens the law's rules needs neither.

  /** Where deadlines without an extension are compared. */
  get daily(): readonly Receipt[] {
    this.dailyReceipts ??= receiptsOn(dailyReceiptDays(), this.law.binding);
    return this.dailyReceipts;
  }

  /** Where extended deadlines are compared. */
  get sampled(): readonly Receipt[] {
    if (!this.sampledReceipts) {
      const eves = [...holidayEvesOf(this.law.binding.holidays), ...holidayEvesOf(this.custom.binding.holidays)];
      this.sampledReceipts = receiptsOn([...new Set([...sampledReceiptDays(), ...eves])].sort(), this.law.binding);
    }
    return this.sampledReceipts;
  }

  /**
   * A period's deadline at each daily receipt. Without events the clock's response deadline,
   * acknowledgement and refusal notice are each the base deadline of their period (the clock
   * computes them with the same function), at a tenth of the cost of a replay, which is what
   * makes every day of a year affordable.
   */
  due(side: Side, period: PeriodRule): Series {
    return this.series(side, { period }, this.daily, (at) => computeBaseDeadline(period, side.binding, at).dueAt);
  }

  /** The response deadline with the largest extension the rule allows, by a replay of the clock at each sampled receipt. */
  extended(side: Side, type: RequestType, rule: RequestRule): Series {
    const max = rule.extension?.maxTotal;
    if (!max) return () => null;
    const { period, extension } = rule;
    return this.series(side, { period, extension }, this.sampled, (at) => {
      const events = [largestExtension(max, at)];
      return computeClock({ pack: side.pack, binding: side.binding, requestType: type, clockMode: 'receipt', receivedAt: at, events }).finalDueAt;
    });
  }

  appealResponse(side: Side): Series {
    return this.series(side, { appealResponse: side.pack.appeal?.response }, this.daily, (at) => appealDueAt(side.pack, side.binding, at));
  }

  /** The appeal clock as the engine runs it for a reopened request, with the appeal's largest extension at once. */
  appealExtended(side: Side): Series {
    const max = side.pack.appeal?.extension?.maxTotal;
    if (!max) return () => null;
    return this.series(side, { appeal: side.pack.appeal }, this.sampled, (at) => {
      const events: ClockEvent[] = [{ kind: 'reopen', at, actor: 'policy-registry' }, largestExtension(max, at)];
      return computeClock({ pack: side.pack, binding: side.binding, requestType: APPEAL_REQUEST_TYPE, clockMode: 'receipt', receivedAt: at, events }).finalDueAt;
    });
  }

  add(field: string, message: string): void {
    if (!this.byField.has(field)) this.byField.set(field, { field, message });
  }

  /** Reports the first receipt whose custom date is later than the law's; true when there is one. */
  reportLater(field: string, receipts: readonly Receipt[], law: Series, custom: Series, message: (day: string, customDue: string, lawDue: string) => string): boolean {
    for (let i = 0; i < receipts.length; i++) {
      const customDue = custom(i);
      const lawDue = law(i);
      if (customDue && lawDue && customDue.getTime() > lawDue.getTime()) {
        this.add(field, message(receipts[i].day, localTime(customDue, this.custom.binding), localTime(lawDue, this.law.binding)));
        return true;
      }
    }
    return false;
  }

  findings(): Finding[] {
    return [...this.byField.values()];
  }

  private series(side: Side, rules: object, receipts: readonly Receipt[], run: (at: Date) => Date | null): Series {
    const rulesKey = canonical({ calendar: calendarOf(side.binding), rules });
    const own = side === this.law ? lawDates : this.customDates;
    return (i) => {
      const at = receipts[i].at;
      const key = `${rulesKey}@${at.getTime()}`;
      const known = own.has(key) ? own.get(key) : lawDates.get(key);
      if (known !== undefined) return known;
      const due = run(at);
      own.set(key, due);
      return due;
    };
  }
}

function calendarOf({ timeZone, holidays }: JurisdictionBinding): object {
  return { timeZone, holidays };
}

/** A lower rank never ends later: it accepts as the last day every day a higher one does, and each roll stops at the first day it accepts. */
const ROLL_RANK: Record<RollRule, number> = { none: 0, sunday_holiday: 1, saturday_sunday_holiday: 2 };

/**
 * Whether `custom` can never end later than `law` on the same calendar, known without running
 * either: counted in the same unit, fewer units, counting the receipt day and a roll that stops
 * sooner can only end earlier. This settles a copied or a plainly shorter rule at no cost; rules
 * of different kinds (months against days, business against calendar days) are simulated.
 */
function neverLater(custom: PeriodRule, law: PeriodRule): boolean {
  const counting = custom.unit === 'months' || custom.countReceiptDay || !law.countReceiptDay;
  return custom.unit === law.unit && custom.amount <= law.amount && counting && ROLL_RANK[custom.roll] <= ROLL_RANK[law.roll];
}

/** The same for the largest extension, which the engine adds the same way when the units and the measure match. */
function neverLaterExtended(custom: { period: PeriodRule; extension: ExtensionRule }, law: { period: PeriodRule; extension: ExtensionRule }): boolean {
  const [c, l] = [custom.extension.maxTotal, law.extension.maxTotal];
  return !!c && !!l && neverLater(custom.period, law.period) && custom.extension.measuredFrom === law.extension.measuredFrom && c.unit === l.unit && c.amount <= l.amount;
}

function largestExtension(max: NonNullable<ExtensionRule['maxTotal']>, at: Date): ClockEvent {
  return {
    kind: 'extension',
    at,
    actor: 'policy-registry',
    ...(max.unit === 'months' ? { additionalMonths: max.amount } : { additionalDays: max.amount }),
    justification: 'The largest extension the pack allows, to compare the pack with the law.',
    reason: 'Comparison of a custom policy pack with the statutory pack.',
  };
}

/** Reports `custom` ending later than `law` at some daily receipt, unless it plainly cannot; true when reported. */
function comparePeriods(c: Comparison, field: string, law: PeriodRule, custom: PeriodRule, message: (day: string, customDue: string, lawDue: string) => string): boolean {
  if (c.sameCalendar && neverLater(custom, law)) return false;
  return c.reportLater(field, c.daily, c.due(c.law, law), c.due(c.custom, custom), message);
}

function compareRequestType(c: Comparison, type: RequestType): void {
  const lawRule = ruleFor(c.law.pack, type);
  if (lawRule.basis !== 'statute') return;
  const customRule = ruleFor(c.custom.pack, type);
  const field = (member: keyof RequestRule) => memberField(c.custom.pack, type, member);
  const periodLater = comparePeriods(
    c,
    field('period'),
    lawRule.period,
    customRule.period,
    (day, customDue, lawDue) => `${type}: a request received ${day} is due ${customDue} under this pack, later than ${lawDue} under ${c.lawId}.`,
  );
  // A member the custom pack took over from the law is later only because the period is: one finding, on the period.
  const followsPeriod = (member: 'extension' | 'refusalNotice') => periodLater && same(lawRule[member], customRule[member]);
  compareExtension(c, {
    subject: type,
    received: 'a request',
    field: field('extension'),
    law: lawRule.extension,
    custom: customRule.extension,
    lawPeriod: lawRule.period,
    customPeriod: customRule.period,
    lawExtended: () => c.extended(c.law, type, lawRule),
    customExtended: () => c.extended(c.custom, type, customRule),
    followsEarlierFinding: followsPeriod('extension'),
  });
  compareAcknowledgement(c, type, field('acknowledgement'), lawRule.acknowledgement, customRule.acknowledgement);
  if (!followsPeriod('refusalNotice')) {
    comparePeriods(
      c,
      field('refusalNotice'),
      // Without a refusal-notice period the refusal is due with the response.
      lawRule.refusalNotice ?? lawRule.period,
      customRule.refusalNotice ?? customRule.period,
      (day, customDue, lawDue) => `${type}: a refusal of a request received ${day} must be explained by ${customDue} under this pack, later than ${lawDue} under ${c.lawId}.`,
    );
  }
}

/** The path of the member the custom pack's effective rule takes from its override or else from its default. */
function memberField(pack: PolicyPack, type: RequestType, member: keyof RequestRule): string {
  return pack.rules.overrides[type]?.[member] !== undefined ? `pack.rules.overrides.${type}.${member}` : `pack.rules.default.${member}`;
}

interface ExtensionSubject {
  /** The request type, or "appeal". */
  readonly subject: string;
  /** What is received: "a request" or "an appeal". */
  readonly received: string;
  /** Where the custom pack's extension rule is. */
  readonly field: string;
  readonly law: ExtensionRule | null;
  readonly custom: ExtensionRule | null;
  /** The periods the extensions extend. */
  readonly lawPeriod: PeriodRule;
  readonly customPeriod: PeriodRule;
  readonly lawExtended: () => Series;
  readonly customExtended: () => Series;
  /** The extension is the law's and its dates are later only because of a finding already made. */
  readonly followsEarlierFinding: boolean;
}

function compareExtension(c: Comparison, s: ExtensionSubject): void {
  const { law, custom } = s;
  if (!custom) return;
  if (!law) {
    c.add(s.field, `${s.subject}: ${c.lawId} allows no extension; this pack allows ${describeExtension(custom)}.`);
    return;
  }
  if (custom.maxCount > law.maxCount) {
    c.add(`${s.field}.maxCount`, `${s.subject}: this pack allows ${custom.maxCount} separate extensions; ${c.lawId} allows ${law.maxCount}.`);
  }
  const [lawMax, customMax] = [law.maxTotal, custom.maxTotal];
  // Where the law sets no cap, no cap of the custom pack can exceed it.
  if (!lawMax) return;
  if (!customMax) {
    c.add(`${s.field}.maxTotal`, `${s.subject}: ${c.lawId} caps extensions at ${describeAmount(lawMax)} in all; this pack sets no cap.`);
    return;
  }
  if (s.followsEarlierFinding) return;
  if (c.sameCalendar && neverLaterExtended({ period: s.customPeriod, extension: custom }, { period: s.lawPeriod, extension: law })) return;
  c.reportLater(
    s.field,
    c.sampled,
    s.lawExtended(),
    s.customExtended(),
    (day, customDue, lawDue) =>
      `${s.subject}: with the largest extension (${describeAmount(customMax)}), ${s.received} received ${day} is due ${customDue} under this pack, later than ${lawDue} with ${c.lawId}'s largest (${describeAmount(lawMax)}).`,
  );
}

function compareAcknowledgement(c: Comparison, type: RequestType, field: string, law: PeriodRule | null, custom: PeriodRule | null): void {
  if (!law) return;
  if (!custom) {
    c.add(field, `${type}: ${c.lawId} requires the receipt to be acknowledged within ${describePeriod(law)}; this pack sets no acknowledgement.`);
    return;
  }
  comparePeriods(c, field, law, custom, (day, customDue, lawDue) => `${type}: a request received ${day} must be acknowledged by ${customDue} under this pack, later than ${lawDue} under ${c.lawId}.`);
}

function compareAppeal(c: Comparison): void {
  const law = c.law.pack.appeal;
  if (!law) return;
  const custom = c.custom.pack.appeal;
  if (!custom) {
    c.add('pack.appeal', `${c.lawId} gives the data subject an appeal to the controller, answered within ${describePeriod(law.response)}; this pack removes it.`);
    return;
  }
  const responseLater =
    !(c.sameCalendar && neverLater(custom.response, law.response)) &&
    c.reportLater(
      'pack.appeal.response',
      c.daily,
      c.appealResponse(c.law),
      c.appealResponse(c.custom),
      (day, customDue, lawDue) => `appeal: an appeal received ${day} must be answered by ${customDue} under this pack, later than ${lawDue} under ${c.lawId}.`,
    );
  compareExtension(c, {
    subject: 'appeal',
    received: 'an appeal',
    field: 'pack.appeal.extension',
    law: law.extension,
    custom: custom.extension,
    lawPeriod: law.response,
    customPeriod: custom.response,
    lawExtended: () => c.appealExtended(c.law),
    customExtended: () => c.appealExtended(c.custom),
    followsEarlierFinding: responseLater && same(law.extension, custom.extension),
  });
}

// ---------------------------------------------------------------------------
// Receipts
// ---------------------------------------------------------------------------

const LOCAL_DATE = 'yyyy-MM-dd';

let daily: readonly string[] | undefined;
let sampled: readonly string[] | undefined;

/**
 * Every day of a year, where each day of the month meets each weekday and every holiday of the
 * calendar, and the days that run into the leap day of 2028. Made on the first check of a custom
 * pack, not when the service starts (400 dates through luxon).
 */
function dailyReceiptDays(): readonly string[] {
  daily ??= [...daysFrom('2026-01-01', 365), ...daysFrom('2028-01-28', 33)];
  return daily;
}

/**
 * Where the extended deadlines are compared: a replay of the clock costs one to four milliseconds,
 * too much for every day, so the days are chosen where period rules part ways:
 * - month ends, where a month period clamps (31 January → 28 February) and a day count does
 *   not, and 1 February, from which 30 days outrun a month;
 * - the leap day and the days that run into it;
 * - two ordinary weeks, so that every period ends on each weekday and every roll shows;
 * - (added per calendar) the eve of each public holiday, so that a period spans it.
 */
function sampledReceiptDays(): readonly string[] {
  sampled ??= [
    ...daysFrom('2026-01-28', 5),
    ...Array.from({ length: 12 }, (_, m) =>
      DateTime.utc(2026, m + 1)
        .endOf('month')
        .toFormat(LOCAL_DATE),
    ),
    ...daysFrom('2026-06-08', 7),
    ...daysFrom('2026-09-14', 7),
    ...daysFrom('2028-01-28', 4),
    ...daysFrom('2028-02-27', 3),
  ];
  return sampled;
}

function daysFrom(first: string, count: number): string[] {
  const start = DateTime.fromISO(first, { zone: 'utc' });
  return Array.from({ length: count }, (_, i) => start.plus({ days: i }).toFormat(LOCAL_DATE));
}

const HOLIDAY_YEAR = 2026;
const holidayEves = new Map<string, readonly string[]>();

/** The eve of each public holiday of a calendar in one year. */
function holidayEvesOf(holidays: JurisdictionBinding['holidays']): readonly string[] {
  if (!holidays) return [];
  const key = calendarName(holidays);
  let days = holidayEves.get(key);
  if (!days) {
    days = daysFrom(`${HOLIDAY_YEAR}-01-01`, 365)
      .filter((day) => isPublicHoliday(day, holidays))
      .map((day) => DateTime.fromISO(day, { zone: 'utc' }).minus({ days: 1 }).toFormat(LOCAL_DATE));
    holidayEves.set(key, days);
  }
  return days;
}

const noons = new Map<string, Date>();

/** Noon local time in the law's zone, well away from any change of clocks. */
function receiptsOn(days: readonly string[], law: JurisdictionBinding): Receipt[] {
  return days.map((day) => {
    const key = `${day}@${law.timeZone}`;
    let at = noons.get(key);
    if (!at) {
      at = DateTime.fromISO(`${day}T12:00`, { zone: law.timeZone }).toJSDate();
      noons.set(key, at);
    }
    return { day, at };
  });
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

function localTime(instant: Date, binding: JurisdictionBinding): string {
  return DateTime.fromJSDate(instant, { zone: binding.timeZone }).toFormat("yyyy-MM-dd'T'HH:mm:ss.SSSZZ");
}

function describeAmount({ amount, unit }: NonNullable<ExtensionRule['maxTotal']>): string {
  const name = unit === 'months' ? 'month' : 'day';
  return `${amount} ${name}${amount === 1 ? '' : 's'}`;
}

function describeExtension(extension: ExtensionRule): string {
  return extension.maxTotal ? `up to ${describeAmount(extension.maxTotal)}` : 'one without a cap';
}

/** Structural equality that ignores the order of members (a tenant's JSON need not list them as the built-in packs do). */
function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) : v));
}
