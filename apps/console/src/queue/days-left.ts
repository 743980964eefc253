/**
 * The days-left badge of a request: its words ("3 days left", "due today", "overdue by 2 days") and its level. Red
 * (`critical`) when overdue or when less than a quarter of the time from receipt to the due date is left, amber
 * (`warning`) under half, else `normal`. The words say it all; the colour only repeats it.
 */
export type DaysLeftLevel = 'critical' | 'warning' | 'normal';

export interface DaysLeft {
  text: string;
  level: DaysLeftLevel;
  overdue: boolean;
}

export interface DaysLeftInput {
  dueAt: string;
  /** Where the period counts from: the receipt. */
  receivedAt: string;
  now: Date;
  /** The API's word (open and past its due time); without it, past the due time is overdue. */
  overdue?: boolean;
  /** The zone whose calendar days are counted; default the browser's. */
  timeZone?: string;
}

const DAY_MS = 86_400_000;

/** The calendar day of an instant in a time zone, as a day number (days since 1970-01-01). */
export function dayNumber(instant: Date, timeZone?: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return Math.round(Date.UTC(part('year'), part('month') - 1, part('day')) / DAY_MS);
}

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

export function daysLeft(input: DaysLeftInput): DaysLeft {
  const due = new Date(input.dueAt);
  const received = new Date(input.receivedAt);
  const now = input.now;
  const past = now.getTime() > due.getTime();
  const overdue = input.overdue ?? past;
  const calendarDays = dayNumber(due, input.timeZone) - dayNumber(now, input.timeZone);
  if (overdue) {
    const late = -calendarDays;
    return { text: late <= 0 ? 'overdue today' : `overdue by ${days(late)}`, level: 'critical', overdue: true };
  }
  // Past the due time but not overdue: the API says the request is no longer open.
  if (past) return { text: 'due date passed', level: 'normal', overdue: false };
  const text = calendarDays <= 0 ? 'due today' : `${days(calendarDays)} left`;
  const period = due.getTime() - received.getTime();
  const left = due.getTime() - now.getTime();
  if (period <= 0) return { text, level: 'critical', overdue: false };
  const share = left / period;
  return { text, level: share < 0.25 ? 'critical' : share < 0.5 ? 'warning' : 'normal', overdue: false };
}
