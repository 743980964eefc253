import Holidays from 'date-holidays';
import { DateTime } from 'luxon';
import { type JurisdictionBinding } from '@dsar/contracts';

/** The holiday calendar of a jurisdiction binding; null means only weekends are non-working. */
export type HolidayCalendarRef = JurisdictionBinding['holidays'];

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const SATURDAY = 6;
const SUNDAY = 7;

/**
 * A local calendar date (yyyy-mm-dd) as a luxon value. UTC is used only as a
 * zone without DST, so that adding days and months is pure date arithmetic.
 */
export function parseLocalDate(date: string): DateTime<true> {
  const parsed = LOCAL_DATE.test(date) ? DateTime.fromISO(date, { zone: 'utc' }) : undefined;
  if (!parsed?.isValid) throw new RangeError(`not a yyyy-mm-dd calendar date: ${JSON.stringify(date)}`);
  return parsed;
}

/**
 * The public holidays of one date-holidays calendar, as local yyyy-mm-dd days.
 *
 * Only type `public` counts. In date-holidays the bank holidays of England,
 * Wales, Scotland and Northern Ireland (Early May, Spring, Summer, substitute
 * days) are already typed `public`, so the UK needs nothing more. Type `bank`
 * is used for days when banks close but the law has no public holiday: Good
 * Friday and weekend-substitute days in Ireland, the afternoons of 24 and 31
 * December in Germany and Austria, midsummer and Christmas eves in Finland and
 * Sweden, 31 December in the Netherlands, the Friday before a Saturday
 * Veterans Day in the US. Counting those would move deadlines past ordinary
 * working days, i.e. later than the law allows.
 */
class PublicHolidayCalendar {
  private readonly source: Holidays;
  private readonly loadedYears = new Set<number>();
  private readonly holidayDays = new Set<string>();

  constructor(country: string, state: string | undefined) {
    if (!holidayCalendarExists({ country, state })) throw new RangeError(`date-holidays has no calendar for ${state ? `${country}-${state}` : country}`);
    this.source = state === undefined ? new Holidays(country) : new Holidays(country, state);
  }

  includes(date: string): boolean {
    const year = parseLocalDate(date).year;
    // Substitute days can be listed under a neighbouring year (a Saturday 1 January observed on 31 December).
    for (const y of [year - 1, year, year + 1]) this.loadYear(y);
    return this.holidayDays.has(date);
  }

  private loadYear(year: number): void {
    if (this.loadedYears.has(year)) return;
    for (const holiday of this.source.getHolidays(year)) {
      if (holiday.type !== 'public') continue;
      // `date` is local to the calendar ("yyyy-mm-dd hh:mm:ss"); a holiday may span several days (1-2 January in Romania).
      const first = parseLocalDate(holiday.date.slice(0, 10));
      const dayCount = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / DAY_MS));
      for (let i = 0; i < dayCount; i++) this.holidayDays.add(first.plus({ days: i }).toISODate());
    }
    this.loadedYears.add(year);
  }
}

let catalogue: Holidays | undefined;

/** Whether date-holidays has the calendar: it accepts unknown codes and then reports no holidays at all, which would silently drop a calendar. */
export function holidayCalendarExists({ country, state }: NonNullable<HolidayCalendarRef>): boolean {
  catalogue ??= new Holidays();
  if (!(country in catalogue.getCountries())) return false;
  return state === undefined || state in (catalogue.getStates(country) ?? {});
}

const calendars = new Map<string, PublicHolidayCalendar>();

function calendarFor({ country, state }: NonNullable<HolidayCalendarRef>): PublicHolidayCalendar {
  const key = state === undefined ? country : `${country}-${state}`;
  let calendar = calendars.get(key);
  if (!calendar) {
    calendar = new PublicHolidayCalendar(country, state);
    calendars.set(key, calendar);
  }
  return calendar;
}

/** Whether a local date is a public holiday of the calendar; always false without a calendar. */
export function isPublicHoliday(date: string, holidays: HolidayCalendarRef): boolean {
  parseLocalDate(date);
  return holidays !== null && calendarFor(holidays).includes(date);
}

/** Whether a local date is a working day: not a Sunday, not a Saturday unless it counts as working, not a public holiday. */
export function isWorkingDay(date: string, holidays: HolidayCalendarRef, saturdayIsWorking = false): boolean {
  const weekday = parseLocalDate(date).weekday;
  if (weekday === SUNDAY || (weekday === SATURDAY && !saturdayIsWorking)) return false;
  return !isPublicHoliday(date, holidays);
}
