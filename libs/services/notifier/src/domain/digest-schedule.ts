import { DateTime } from 'luxon';

/**
 * The local date whose digest is due at `now`, or null: a tenant's digest for
 * a day is due from its time (HH:MM in its zone) until the day ends, so a
 * notifier that was down at that time sends it when it is back that day.
 */
export function dueDigestDate(now: Date, digestTime: string, timeZone: string): string | null {
  if (digestTime === 'off') return null;
  const local = DateTime.fromJSDate(now, { zone: timeZone });
  const [hour, minute] = digestTime.split(':').map(Number);
  const at = local.set({ hour, minute, second: 0, millisecond: 0 });
  return local >= at ? local.toISODate() : null;
}
