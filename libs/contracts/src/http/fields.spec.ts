import { z } from 'zod';
import {
  addressToCompare,
  emailAddress,
  instantOf,
  intParam,
  integerRangePattern,
  NO_CONTROL_CHARACTERS,
  NO_CONTROL_CHARACTERS_MESSAGE,
  NOT_BLANK,
  NOT_BLANK_MESSAGE,
  text,
  TIMESTAMP_MESSAGE,
  TIMESTAMP_PATTERN,
  timestamp,
} from './fields';

/** The messages of a failed parse (empty when it passes). */
function messages(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

/** The JSON Schema the OpenAPI document publishes for a field, checked the way a client would (every pattern, the lengths). */
function publishedAccepts(schema: z.ZodType, value: string): boolean {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as { pattern?: string; allOf?: { pattern: string }[]; minLength?: number; maxLength?: number };
  const patterns = [json.pattern, ...(json.allOf ?? []).map((p) => p.pattern)].filter((p): p is string => p !== undefined);
  const length = [...value].length;
  return patterns.every((p) => new RegExp(p, 'u').test(value)) && length >= (json.minLength ?? 0) && length <= (json.maxLength ?? Infinity);
}

describe('timestamp', () => {
  it.each(['1970-01-01T00:00:00Z', '2026-03-01T09:30:00Z', '2026-03-01T09:30:00.123456+01:00', '2024-02-29T12:00:00Z', '2000-02-29T12:00:00-05:30', '2999-12-31T23:59:59.999Z'])(
    'accepts %s, and it reads as the exact instant',
    (value) => {
      expect(timestamp.parse(value)).toBe(value);
      expect(publishedAccepts(timestamp, value)).toBe(true);
      const instant = instantOf(value);
      expect(instant.getTime()).toBe(Date.parse(value));
      // The year as written is the year of the instant (within a day of it for an offset): no 19xx/20xx reinterpretation.
      expect(Math.abs(instant.getUTCFullYear() - Number(value.slice(0, 4)))).toBeLessThanOrEqual(1);
    },
  );

  it('reads the range ends as the exact instants', () => {
    expect(instantOf('1970-01-01T00:00:00Z').getTime()).toBe(0);
    expect(instantOf('2999-12-31T23:59:59.999Z').toISOString()).toBe('2999-12-31T23:59:59.999Z');
    expect(instantOf('2026-03-01T10:30:00+01:00').toISOString()).toBe('2026-03-01T09:30:00.000Z');
    expect(() => instantOf('0029-12-09T04:54:38Z')).toThrow(RangeError);
  });

  it.each([
    ['a year before 100', '0029-12-09T04:54:38Z'],
    ['year 1', '0001-01-01T00:00:00Z'],
    ['a year before 1970', '1969-12-31T23:59:59Z'],
    ['a year after 2999', '3000-01-01T00:00:00Z'],
    ['an expanded year', '+002026-03-01T09:30:00Z'],
    ['a two-digit year', '26-03-01T09:30:00Z'],
    ['no zone', '2026-03-01T09:30:00'],
    ['no seconds', '2026-03-01T09:30Z'],
    ['a date only', '2026-03-01'],
    ['30 February', '2026-02-30T09:30:00Z'],
    ['29 February of a common year', '2026-02-29T09:30:00Z'],
    ['29 February 2100 (not a leap year)', '2100-02-29T09:30:00Z'],
    ['hour 24', '2026-03-01T24:00:00Z'],
    ['a NUL', '2026-03-01T09:30:00Z\u0000'],
  ])('refuses %s with a message naming the form and the range', (_case, value) => {
    expect(messages(timestamp, value)).toEqual([TIMESTAMP_MESSAGE]);
    expect(publishedAccepts(timestamp, value)).toBe(false);
  });

  it('names the range in its message', () => {
    expect(TIMESTAMP_MESSAGE).toMatch(/1970 to 2999/);
    expect(TIMESTAMP_MESSAGE).toMatch(/2026-03-01T09:30:00Z/);
  });

  it('knows every leap day of its range', () => {
    for (let year = 1970; year <= 2999; year++) {
      const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
      expect([year, TIMESTAMP_PATTERN.test(`${year}-02-29T00:00:00Z`)]).toEqual([year, leap]);
    }
  });

  it('is published as a date-time with the pattern the server checks', () => {
    expect(z.toJSONSchema(timestamp, { target: 'draft-2020-12', io: 'input' })).toMatchObject({ type: 'string', format: 'date-time', pattern: TIMESTAMP_PATTERN.source });
  });
});

describe('text', () => {
  const field = text(20);

  it('trims, and keeps tab, line feed and carriage return', () => {
    expect(field.parse('  hello  ')).toBe('hello');
    expect(field.parse('a\tb\r\nc')).toBe('a\tb\r\nc');
    expect(field.parse('naïve ✓ 你好')).toBe('naïve ✓ 你好');
  });

  it.each([
    ['NUL', 'abc\u0000def'],
    ['a leading NUL', '\u0000abc'],
    ['BEL', 'ring\u0007'],
    ['ESC', '\u001b[31mred'],
    ['vertical tab', 'a\u000bb'],
    ['form feed', 'a\u000cb'],
    ['unit separator', 'a\u001fb'],
    ['DEL', 'a\u007fb'],
  ])('refuses %s with one message naming the rule', (_case, value) => {
    expect(messages(field, value)).toEqual([NO_CONTROL_CHARACTERS_MESSAGE]);
    expect(publishedAccepts(field, value)).toBe(false);
  });

  it.each([
    ['spaces', '   '],
    ['tabs and line ends', '\t\r\n'],
    ['no-break spaces', '\u00a0\u2003\u3000'],
    ['a byte order mark', '\ufeff'],
  ])('refuses text of only white space (%s): the published pattern says so too', (_case, value) => {
    expect(messages(field, value)).toEqual([NOT_BLANK_MESSAGE]);
    expect(publishedAccepts(field, value)).toBe(false);
  });

  it('refuses empty and too long text', () => {
    expect(messages(field, '')).toHaveLength(1);
    expect(messages(field, 'x'.repeat(21))).toHaveLength(1);
    expect(publishedAccepts(field, '')).toBe(false);
    expect(publishedAccepts(field, 'x'.repeat(21))).toBe(false);
  });

  it('white space is exactly what trim removes', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (code >= 0xd800 && code <= 0xdfff) continue;
      expect([code, NOT_BLANK.test(c)]).toEqual([code, c.trim() !== '']);
    }
  });

  it('allows every other character', () => {
    for (let code = 0; code < 0x80; code++) {
      const allowed = code === 9 || code === 10 || code === 13 || (code >= 0x20 && code < 0x7f);
      expect([code, NO_CONTROL_CHARACTERS.test(String.fromCharCode(code))]).toEqual([code, allowed]);
    }
    expect(NO_CONTROL_CHARACTERS.test('\u0085\u2028\u00e9')).toBe(true);
  });
});

describe('emailAddress', () => {
  it('says what an address looks like', () => {
    expect(messages(emailAddress(), 'jane\u0000@example.org')).toEqual(['must be an email address, e.g. jane@example.org']);
    expect(emailAddress().parse('jane@example.org')).toBe('jane@example.org');
  });
});

describe('intParam', () => {
  it('matches exactly the integers of its range, without leading zeros', () => {
    for (const [min, max] of [
      [0, 0],
      [0, 9],
      [1, 9],
      [1, 200],
      [0, 100],
      [7, 93],
      [0, 3650],
      [1, 100],
      [15, 1234],
    ]) {
      const re = new RegExp(`^(?:${integerRangePattern(min, max)})$`);
      for (let n = 0; n <= 2 * max + 20; n++) expect([min, max, n, re.test(String(n))]).toEqual([min, max, n, n >= min && n <= max]);
      expect(re.test(`0${min}`)).toBe(false);
      expect(re.test(`-${min}`)).toBe(false);
    }
    expect(integerRangePattern(1, 200)).toBe('[1-9]|[1-9]\\d|1\\d{2}|200');
  });

  it('publishes the range it checks, and says it in its message', () => {
    const limit = intParam(1, 200);
    expect(limit.parse('200')).toBe(200);
    expect(messages(limit, '201')).toEqual(['must be a whole number from 1 to 200, without leading zeros']);
    expect(messages(limit, '0')).toHaveLength(1);
    expect(messages(limit, '1e2')).toHaveLength(1);
    const published = z.toJSONSchema(limit, { target: 'draft-2020-12', io: 'input' }) as { pattern: string };
    expect(new RegExp(published.pattern).test('200')).toBe(true);
    expect(new RegExp(published.pattern).test('201')).toBe(false);
    expect(new RegExp(published.pattern).test('0')).toBe(false);
  });
});

describe('emailAddress', () => {
  const email = emailAddress();
  it('takes an ordinary address, refuses one whose parts are longer than mail allows (RFC 5321)', () => {
    expect(email.safeParse('jane.doe+dsar@example.org').success).toBe(true);
    expect(email.safeParse(`${'a'.repeat(64)}@example.org`).success).toBe(true);
    const tooLong = email.safeParse(`${'a'.repeat(65)}@example.org`);
    expect(tooLong.success).toBe(false);
    expect(tooLong.error?.issues[0].message).toContain('at most 64 characters before the @');
  });
});

describe('addressToCompare', () => {
  const address = addressToCompare();
  const published = z.toJSONSchema(z.object({ email: address }), { io: 'input' }).properties?.email as { pattern: string; maxLength: number };

  it('takes every value its published schema allows, white space around it and a local part longer than mail allows included', () => {
    const pasted = `\r\n\f\u000b ${'a.b+c'.repeat(14)}@mail.example.org\u000b `;
    expect(new RegExp(published.pattern).test(pasted) && pasted.length <= published.maxLength).toBe(true);
    expect(address.safeParse(pasted)).toEqual({ success: true, data: `${'a.b+c'.repeat(14)}@mail.example.org` });
  });

  it('refuses what is not an address, and what is longer than its published bound', () => {
    expect(address.safeParse('jane at example.org').success).toBe(false);
    expect(address.safeParse(`${'a'.repeat(995)}@example.org`).success).toBe(false);
  });
});
