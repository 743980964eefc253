import { z } from 'zod';

/**
 * Field types every HTTP contract shares, and the input rules behind them
 * (docs/security.md#input-rules). Each rule is one regular expression that
 * the server checks and the OpenAPI document publishes as the field's
 * `pattern`, so the published schema and the server cannot disagree.
 */

/** The years a timestamp may name, as written (in its own offset). */
export const TIMESTAMP_YEARS = { min: 1970, max: 2999 } as const;

/** 1970–2999. */
const YEAR = '(?:19[7-9]\\d|2\\d{3})';
/** The leap years of 1970–2999: divisible by 4, and not by 100 unless by 400 (2000, 2400, 2800). */
const LEAP_YEAR = '(?:19(?:7[26]|8[048]|9[26])|2\\d(?:0[48]|[2468][048]|[13579][26])|2[048]00)';
const MONTH_DAY = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?';
const ZONE = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';

/**
 * An RFC 3339 / ISO 8601 date-time with seconds and a zone (`Z` or `±HH:MM`),
 * an optional fraction, a real calendar date (29 February only in leap years),
 * and a four-digit year from 1970 to 2999. The year is always written in full,
 * so `Date.parse` reads the exact instant (years 0–99 would otherwise be taken
 * for 19xx by some date functions, and years before 1970 break the clock).
 */
export const TIMESTAMP_PATTERN = new RegExp(`^(?:${YEAR}-${MONTH_DAY}|${LEAP_YEAR}-02-29)T${TIME}${ZONE}$`);
export const TIMESTAMP_MESSAGE = `must be an ISO 8601 date-time with a zone and a year from ${TIMESTAMP_YEARS.min} to ${TIMESTAMP_YEARS.max}, e.g. 2026-03-01T09:30:00Z`;

/** The one timestamp type of every contract: request and response fields, event payloads, policy packs. */
export const timestamp = z
  .string()
  .regex(TIMESTAMP_PATTERN, TIMESTAMP_MESSAGE)
  .meta({ format: 'date-time' })
  .describe(`ISO 8601 timestamp with a zone designator, year ${TIMESTAMP_YEARS.min}–${TIMESTAMP_YEARS.max}, e.g. 2026-03-01T09:30:00Z`);

/** The instant a timestamp names: exact, since the contract admits four-digit years from 1970 only. */
export function instantOf(value: string): Date {
  if (!TIMESTAMP_PATTERN.test(value)) throw new RangeError(`not a contract timestamp: ${JSON.stringify(value)}`);
  return new Date(value);
}

/**
 * The characters no text field may hold: the C0 control characters other than
 * tab, line feed and carriage return (U+0000–U+0008, U+000B, U+000C,
 * U+000E–U+001F), and DEL (U+007F). NUL cannot be stored in PostgreSQL text;
 * the others have no place in what a person wrote and confuse logs and exports.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point of this rule
export const NO_CONTROL_CHARACTERS = /^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$/;
export const NO_CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters (U+0000–U+001F other than tab, line feed and carriage return, or U+007F)';

/**
 * At least one character that is not white space, the same white space that
 * String.prototype.trim removes (spelled out, so that every regex dialect
 * reads the published pattern alike).
 */
export const NOT_BLANK = /[^\t\n\v\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF]/;
export const NOT_BLANK_MESSAGE = 'must contain a character other than white space';

/**
 * Free text of at most `max` characters: not blank, no control characters
 * (tab, line feed and carriage return are allowed), trimmed. The length counts
 * the text as sent.
 */
export const text = (max: number) =>
  z.string().min(1, { abort: true }).max(max, { abort: true }).regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE, abort: true }).regex(NOT_BLANK, NOT_BLANK_MESSAGE).trim();

/** An email address (the HTML form's rule, as zod checks it), at most 320 characters. */
/**
 * What a field that trims an email address before checking it publishes: emailAddress()'s pattern with optional white
 * space around it, so that a client (or a fuzzer) reading the schema sends what the server takes. No `format: email`:
 * that format refuses the white space the server trims.
 */
export const PADDED_EMAIL_ADDRESS_SCHEMA = {
  pattern: `^\\s*(?:${z.regexes.email.source.slice(1, -1)})\\s*$`,
} as const;

/**
 * An email address a caller asks about, compared with the one on file and never stored or written to: trimmed, then
 * only its syntax checked. Published as the padded pattern with its length bound, so that every value the schema
 * allows is taken; an address too long for a mail server (RFC 5321's 64 octets before the @) is simply not the one
 * on file.
 */
export const ADDRESS_TO_COMPARE_MAX_LENGTH = 1000;
export const addressToCompare = () =>
  z
    .string()
    .max(ADDRESS_TO_COMPARE_MAX_LENGTH)
    .trim()
    .meta({ ...PADDED_EMAIL_ADDRESS_SCHEMA, maxLength: ADDRESS_TO_COMPARE_MAX_LENGTH })
    .pipe(z.email({ error: 'must be an email address, e.g. jane@example.org' }));

export const emailAddress = () =>
  z
    .email({ error: 'must be an email address, e.g. jane@example.org' })
    .max(320)
    // RFC 5321 4.5.3.1: at most 64 octets before the @ and 255 after it (a mail server would refuse longer ones).
    .refine((address) => {
      const at = address.lastIndexOf('@');
      const octets = (text: string) => new TextEncoder().encode(text).length;
      return octets(address.slice(0, at)) <= 64 && octets(address.slice(at + 1)) <= 255;
    }, 'must be an email address with at most 64 characters before the @ and 255 after it');

/**
 * A regular expression source matching exactly the decimal integers from `min`
 * to `max`, written without leading zeros: 1–200 is `[1-9]|[1-9]\d|1\d\d|200`.
 */
export function integerRangePattern(min: number, max: number): string {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || max < min) throw new RangeError(`bad integer range ${min}..${max}`);
  // Blocks [lo, lo + 10^k - 1] with lo a multiple of 10^k: a fixed prefix followed by k free digits.
  const blocks: { prefix: string; digit: number; free: number }[] = [];
  let lo = min;
  if (lo === 0) {
    blocks.push({ prefix: '', digit: 0, free: 0 });
    lo = 1;
  }
  while (lo <= max) {
    let k = 0;
    while (lo % 10 ** (k + 1) === 0 && lo + 10 ** (k + 1) - 1 <= max) k++;
    const head = String(lo / 10 ** k);
    blocks.push({ prefix: head.slice(0, -1), digit: Number(head.slice(-1)), free: k });
    lo += 10 ** k;
  }
  // Neighbouring blocks that differ only in their last fixed digit share one character class.
  const merged: { prefix: string; from: number; to: number; free: number }[] = [];
  for (const b of blocks) {
    const last = merged[merged.length - 1];
    if (last && last.prefix === b.prefix && last.free === b.free && last.to + 1 === b.digit) last.to = b.digit;
    else merged.push({ prefix: b.prefix, from: b.digit, to: b.digit, free: b.free });
  }
  const free = (k: number) => (k === 0 ? '' : k === 1 ? '\\d' : `\\d{${k}}`);
  return merged.map((m) => `${m.prefix}${m.from === m.to ? m.from : m.to === m.from + 1 ? `[${m.from}${m.to}]` : `[${m.from}-${m.to}]`}${free(m.free)}`).join('|');
}

/**
 * A whole number given as a query parameter (text), from `min` to `max`. The
 * published pattern admits exactly those numbers, so the OpenAPI document
 * states the range that the server checks.
 */
export const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(new RegExp(`^(?:${integerRangePattern(min, max)})$`), `must be a whole number from ${min} to ${max}, without leading zeros`)
    .transform(Number);
