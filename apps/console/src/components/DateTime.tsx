import { formatDate, formatDateTime } from '../format';

/** An instant in the browser's locale, the ISO value in its `title` and `datetime`. */
export function DateTime({ value, dateOnly = false }: { value: string; dateOnly?: boolean }) {
  return (
    <time dateTime={value} title={value}>
      {dateOnly ? formatDate(value) : formatDateTime(value)}
    </time>
  );
}
