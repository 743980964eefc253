import { CLOSE_WINDOW_DAYS, STATS_WEEK_DAYS } from '@dsar/contracts';

/** Days are counted as 24 hours of UTC, whatever the calendar (the legal clock's own days are the policy packs'). */
export const DAY_MS = 86_400_000;

/** The instant `days` days of 24 hours after `at` (before it, for a negative number). */
const daysFrom = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);

/** The queue's at-risk filter (`atRiskDays`): open requests due at or before this instant, overdue ones included. */
export function atRiskHorizon(now: Date, days: number): Date {
  return daysFrom(now, days);
}

/** The instants the tenant's figures are counted between (docs/lifecycle.md#figures). */
export interface StatsWindows {
  asOf: Date;
  /** The at-risk horizon of the week: `asOf` + 7 days. */
  weekAhead: Date;
  /** `asOf` − 7 days: requests due after it and by `asOf` became overdue this week. */
  weekAgo: Date;
  /** `asOf` − `windowDays` days: the start of the time-to-close window. */
  closedSince: Date;
  windowDays: number;
}

export function statsWindowsOf(asOf: Date, windowDays: number = CLOSE_WINDOW_DAYS.default): StatsWindows {
  return {
    asOf,
    weekAhead: atRiskHorizon(asOf, STATS_WEEK_DAYS),
    weekAgo: daysFrom(asOf, -STATS_WEEK_DAYS),
    closedSince: daysFrom(asOf, -windowDays),
    windowDays,
  };
}
