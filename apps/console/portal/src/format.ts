/** Numbers and times as the person reads them, in the page's language (Intl: nothing bundled for it). */

/**
 * A file's size as people read it in their language: `812 bytes`, `1.5 MB`, `1,5 Mo`. Decimal units (1 kB = 1000
 * bytes), as phones and their file managers count, with one decimal under 10.
 */
const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

export function formatBytes(size: number, locale: string): string {
  if (!Number.isFinite(size) || size < 0) return '';
  if (size < 1000) return new Intl.NumberFormat(locale, { style: 'unit', unit: 'byte', unitDisplay: 'long' }).format(Math.round(size));
  let value = size / 1000;
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: value < 10 ? 1 : 0 }).format(value);
}

/** How much of a download arrived: `45%`, `45 %`. */
export function formatPercent(fraction: number, locale: string): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(Math.floor(clamped * 100) / 100);
}

/** A moment (the link's expiry) in the browser's time zone: `12 March 2025 at 14:30`; the ISO text when it is none. */
export function formatDateTime(iso: string, locale: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(date);
}

/** A wait as the language says it from now: `in 30 seconds`, `in 2 minutes`, `dans 1 heure`; rounded up. */
export function formatWait(seconds: number, locale: string): string {
  const words = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  if (seconds < 60) return words.format(Math.max(1, Math.ceil(seconds)), 'second');
  if (seconds < 3600) return words.format(Math.ceil(seconds / 60), 'minute');
  return words.format(Math.ceil(seconds / 3600), 'hour');
}
