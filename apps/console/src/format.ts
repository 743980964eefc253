/** Dates in the browser's locale and time zone (the ISO value goes in a `title` beside them: components/DateTime.tsx). */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function valid(iso: string): Date | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function formatDate(iso: string): string {
  const date = valid(iso);
  return date ? dateFormat.format(date) : iso;
}

export function formatDateTime(iso: string): string {
  const date = valid(iso);
  return date ? dateTimeFormat.format(date) : iso;
}

/** A code in words for headings of the timeline: `request_created` → `Request created`. */
export function sentenceOf(code: string): string {
  const words = code.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
