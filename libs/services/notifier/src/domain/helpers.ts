import type { HelperOptions } from 'handlebars';
import { LABELS, type Labels } from './labels';
import { FALLBACK_LOCALE, isLocale, type Locale } from './notification-kinds';
import { maskDestination } from './operator-context';

/**
 * Template helpers. Each render passes `{ locale, timeZone }` as Handlebars
 * data (`@locale`, `@timeZone`), so one compiled template serves every
 * locale and time zone. Every helper turns a missing or malformed value into
 * an empty string: a template must never print "undefined" or "Invalid Date"
 * to a data subject.
 */
export interface RenderData {
  locale: Locale;
  timeZone: string;
}

type Helper = (this: unknown, ...args: unknown[]) => unknown;

/** The helpers by name; the override check (engine.ts) accepts these and Handlebars' built-ins. */
export const HELPERS: Readonly<Record<string, Helper>> = {
  date: withData((data, value) => formatDate(value, data, 'date')),
  datetime: withData((data, value) => formatDate(value, data, 'datetime')),
  requestType: function (this: unknown, ...args: unknown[]) {
    // `{{requestType}}` without an argument is the field of the same name: the
    // helper shadows it, and a tenant writing the obvious thing should get the label.
    const options = args.pop() as HelperOptions;
    const code = args.length > 0 ? args[0] : (this as { requestType?: unknown } | undefined)?.requestType;
    return label(dataOf(options), 'requestTypes', code);
  },
  refusalReason: labelHelper('refusalReasons'),
  appealDecision: labelHelper('appealDecisions'),
  deadlineKind: labelHelper('deadlineKinds'),
  channel: labelHelper('deliveryChannels'),
  taskAction: labelHelper('taskActions'),
  methods: withData((data, list) => {
    if (!Array.isArray(list)) return '';
    const names = [...new Set(list.filter((m): m is string => typeof m === 'string' && m !== ''))].map((m) => label(data, 'verificationMethods', m));
    return names.length ? listFormat(data.locale).format(names) : '';
  }),
  /** The kinds of identity a duplicate matched on, all of them: "email address and phone number". */
  identityKinds: withData((data, list) => {
    if (!Array.isArray(list)) return '';
    const names = [...new Set(list.filter((k): k is string => typeof k === 'string' && k !== ''))].map((k) => label(data, 'identityKinds', k));
    return names.length ? listFormat(data.locale, 'conjunction').format(names) : '';
  }),
  days: withData((data, n) => formatUnit(n, 'day', data)),
  months: withData((data, n) => formatUnit(n, 'month', data)),
  /** An extension's length as the law has it counted: in months where the pack extends in months, else in days. */
  extensionLength: withData((data, extension) => {
    const e = extension as { additionalDays?: unknown; additionalMonths?: unknown } | undefined;
    if (!e || typeof e !== 'object') return '';
    return isCount(e.additionalMonths) ? formatUnit(e.additionalMonths, 'month', data) : formatUnit(e.additionalDays, 'day', data);
  }),
  /** A one-time code in groups of four digits (`1234 5678`), easier to read and type; anything but digits shows as nothing. */
  oneTimeCode: (...args: unknown[]) => (typeof args[0] === 'string' && /^\d+$/.test(args[0]) ? (args[0].match(/\d{1,4}/g) ?? []).join(' ') : ''),
  count: (...args: unknown[]) => (Array.isArray(args[0]) ? args[0].length : 0),
  mask: (...args: unknown[]) => (typeof args[0] === 'string' ? maskDestination(args[0]) : ''),
  eq: (...args: unknown[]) => args.length > 2 && args[0] === args[1],
  /** The first truthy argument (or the last one): `{{date (or extension.dueAt dueAt)}}`. */
  or: (...args: unknown[]) => {
    const values = args.slice(0, -1);
    return values.find(Boolean) ?? values[values.length - 1];
  },
  and: (...args: unknown[]) => args.slice(0, -1).every(Boolean),
  not: (...args: unknown[]) => !args[0],
  /** True when a value is given at all, so that 0 counts (`{{#if}}` treats 0 as absent). */
  present: (...args: unknown[]) => args.length > 1 && args[0] !== undefined && args[0] !== null && args[0] !== '',
};

function withData(fn: (data: RenderData, ...values: unknown[]) => string): Helper {
  return (...args: unknown[]) => {
    const options = args.pop() as HelperOptions;
    return fn(dataOf(options), ...args);
  };
}

function labelHelper(table: keyof Labels): Helper {
  return withData((data, code) => label(data, table, code));
}

function dataOf(options: HelperOptions | undefined): RenderData {
  const data = (options?.data ?? {}) as Partial<RenderData>;
  return {
    locale: typeof data.locale === 'string' && isLocale(data.locale) ? data.locale : FALLBACK_LOCALE,
    timeZone: typeof data.timeZone === 'string' ? data.timeZone : 'UTC',
  };
}

/** A code's label; an unknown code is shown as it is (see labels.ts). */
function label(data: RenderData, table: keyof Labels, code: unknown): string {
  if (typeof code !== 'string' || code === '') return '';
  return LABELS[data.locale][table][code] ?? LABELS[FALLBACK_LOCALE][table][code] ?? code;
}

function toDate(value: unknown): Date | undefined {
  const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

// Intl formatters are costly to build and every render would build the same few again.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}

function formatDate(value: unknown, data: RenderData, style: 'date' | 'datetime'): string {
  const date = toDate(value);
  if (!date) return '';
  const formatter = cached(`${style}|${data.locale}|${data.timeZone}`, () =>
    style === 'date'
      ? new Intl.DateTimeFormat(data.locale, { dateStyle: 'long', timeZone: data.timeZone })
      : new Intl.DateTimeFormat(data.locale, {
          year: 'numeric',
          month: 'long',
          day: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          timeZoneName: 'short',
          timeZone: data.timeZone,
        }),
  );
  return formatter.format(date);
}

function formatUnit(value: unknown, unit: 'day' | 'month', data: RenderData): string {
  if (!isCount(value)) return '';
  return cached(`${unit}|${data.locale}`, () => new Intl.NumberFormat(data.locale, { style: 'unit', unit, unitDisplay: 'long' })).format(value);
}

/** Verification methods are a disjunction (the person may use any one of them); the identities a duplicate matched on, a conjunction. */
function listFormat(locale: Locale, type: 'disjunction' | 'conjunction' = 'disjunction'): Intl.ListFormat {
  return cached(`list|${type}|${locale}`, () => new Intl.ListFormat(locale, { style: 'long', type }));
}

/** Whether Intl knows a time zone; renders refuse an unknown one rather than silently using another. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}
