import { DateTime } from 'luxon';
import { type JurisdictionBinding, type PeriodRule } from '@dsar/contracts';
import { type HolidayCalendarRef, isWorkingDay, parseLocalDate } from './working-days';

export interface BaseDeadline {
  /** End of the last local day (23:59:59.999 local time), as a UTC Date. */
  dueAt: Date;
  /** The last local day, yyyy-mm-dd, after any roll. */
  lastDay: string;
  /** The local day the period itself ended on, before the roll (equal to lastDay when nothing rolled). */
  periodEnd: string;
  /** Local date of receipt, yyyy-mm-dd. */
  receiptDay: string;
}

/**
 * The base response deadline of a request: the period of the rule counted on
 * local dates of the jurisdiction from the day of receipt, rolled off rest days
 * as the rule says. No pauses or extensions; those build on this result.
 */
export function computeBaseDeadline(rule: PeriodRule, binding: JurisdictionBinding, receivedAt: Date): BaseDeadline {
  if (!Number.isInteger(rule.amount) || rule.amount < 1) throw new RangeError(`period amount must be a positive integer, got ${rule.amount}`);
  const receiptDay = localDateOf(receivedAt, binding.timeZone);
  const periodEnd = endOfPeriod(rule, receiptDay, binding.holidays);
  const lastDay = rollOffRestDays(periodEnd, rule.roll, binding.holidays);
  return { dueAt: endOfLocalDay(lastDay, binding.timeZone), lastDay, periodEnd, receiptDay };
}

export function localDateOf(instant: Date, timeZone: string): string {
  const local = DateTime.fromJSDate(instant, { zone: timeZone });
  if (!local.isValid) throw new RangeError(`cannot place ${String(instant)} in time zone ${timeZone}: ${local.invalidExplanation ?? local.invalidReason}`);
  return local.toISODate();
}

/** The local day a period counted from `receiptDay` ends on, before any roll. */
export function endOfPeriod(rule: PeriodRule, receiptDay: string, holidays: HolidayCalendarRef): string {
  switch (rule.unit) {
    case 'months':
      // A month period ends on the date corresponding to the receipt day (Reg 1182/71 Art 3(2)(c); the ICO's
      // "3 September -> 3 October"). Excluding the receipt day (Art 3(1)) and making it day one (ICO) both
      // land there, so countReceiptDay cannot change a month period. luxon clamps to the month's last day.
      return parseLocalDate(receiptDay).plus({ months: rule.amount }).toISODate();
    case 'calendar_days': {
      // When the receipt day is day one, it uses up one of the days.
      const days = rule.countReceiptDay ? rule.amount - 1 : rule.amount;
      return parseLocalDate(receiptDay).plus({ days }).toISODate();
    }
    case 'business_days':
      return addWorkingDays(receiptDay, rule.amount, rule.countReceiptDay, holidays);
    default: {
      const unknownUnit: never = rule.unit;
      throw new RangeError(`unknown period unit ${String(unknownUnit)}`);
    }
  }
}

/** The day on which the amount-th working day falls, counting the receipt day only when the rule says so and it is a working day. */
export function addWorkingDays(receiptDay: string, amount: number, countReceiptDay: boolean, holidays: HolidayCalendarRef): string {
  let day = receiptDay;
  let counted = countReceiptDay && isWorkingDay(receiptDay, holidays) ? 1 : 0;
  while (counted < amount) {
    day = nextDay(day);
    if (isWorkingDay(day, holidays)) counted++;
  }
  return day;
}

/** The first day from `periodEnd` on that the roll rule accepts as a last day. */
export function rollOffRestDays(periodEnd: string, roll: PeriodRule['roll'], holidays: HolidayCalendarRef): string {
  if (roll === 'none') return periodEnd;
  const saturdayIsWorking = roll === 'sunday_holiday';
  let day = periodEnd;
  while (!isWorkingDay(day, holidays, saturdayIsWorking)) day = nextDay(day);
  return day;
}

export function nextDay(date: string): string {
  return parseLocalDate(date).plus({ days: 1 }).toISODate();
}

/**
 * The last instant of a local day: one millisecond before the next local day
 * starts. Derived from the next midnight rather than from the wall time
 * 23:59:59.999: where clocks go back at midnight (America/Santiago) that wall
 * time occurs twice and the day ends at the second one, which the next midnight
 * pins down without relying on how an ambiguous local time is resolved. Where
 * midnight is skipped, luxon moves it to the first instant of the new day,
 * which is still the right boundary.
 */
export function endOfLocalDay(date: string, timeZone: string): Date {
  const nextMidnight = DateTime.fromISO(nextDay(date), { zone: timeZone });
  if (!nextMidnight.isValid) throw new RangeError(`cannot place ${date} in time zone ${timeZone}: ${nextMidnight.invalidExplanation ?? nextMidnight.invalidReason}`);
  return new Date(nextMidnight.toMillis() - 1);
}
