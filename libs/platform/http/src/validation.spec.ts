import { z } from 'zod';
import { MAX_FIELD_NAME_LENGTH, MAX_LISTED_FIELD_PROBLEMS, ProblemError } from '@dsar/platform/errors';
import { parseInput } from './validation';

const schema = z.strictObject({
  name: z.string().trim().min(1),
  when: z.iso.datetime({ offset: true }),
  kind: z.enum(['a', 'b']),
  nested: z.strictObject({ count: z.number().int().max(3) }).optional(),
});

function problemOf(value: unknown, what?: 'body' | 'query'): ProblemError {
  try {
    parseInput(schema, value, what);
  } catch (e) {
    return e as ProblemError;
  }
  throw new Error('expected a validation problem');
}

describe('parseInput', () => {
  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: ' x ', when: '2026-01-01T00:00:00Z', kind: 'a' })).toEqual({ name: 'x', when: '2026-01-01T00:00:00Z', kind: 'a' });
  });

  it('names every bad field with a plain message', () => {
    const p = problemOf({ name: '', when: '2026-01-01', kind: 'c', nested: { count: 9, extra: true }, other: 1 });
    expect(p.definition.code).toBe('SVC-BE-1102');
    expect(p.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'must not be empty' },
        { field: 'when', message: expect.stringContaining('ISO 8601') },
        { field: 'kind', message: 'must be one of: a, b' },
        { field: 'nested.count', message: 'must be at most 3' },
        { field: 'nested.extra', message: 'is not a known field' },
        { field: 'other', message: 'is not a known field' },
      ]),
    );
    expect(p.errors).toHaveLength(6);
  });

  it('says a missing field is required and a missing body is required', () => {
    expect(problemOf({ when: '2026-01-01T00:00:00Z', kind: 'a' }).errors).toEqual([{ field: 'name', message: 'is required' }]);
    expect(problemOf(undefined).errors).toEqual([{ field: '(body)', message: 'is required' }]);
  });
});

describe('parseInput messages that tell the caller what to send', () => {
  it('tells a value of the wrong type from a missing one', () => {
    expect(problemOf({ name: 5, when: '2026-01-01T00:00:00Z', kind: 'a' }).errors).toEqual([{ field: 'name', message: 'must be a string' }]);
    expect(problemOf({ name: 'x', when: '2026-01-01T00:00:00Z', kind: 'a', nested: [] }).errors).toEqual([{ field: 'nested', message: 'must be an object' }]);
    expect(problemOf([]).errors).toEqual([{ field: '(body)', message: 'must be an object' }]);
    expect(problemOf(null).errors).toEqual([{ field: '(body)', message: 'must be an object' }]);
  });

  it("passes on the contract's own message for a pattern, and names the pattern otherwise", () => {
    const hash = z.strictObject({ hash: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be sha256: followed by 64 lowercase hex digits') });
    const bare = z.strictObject({ code: z.string().regex(/^[A-Z]{2}$/) });
    const problem = (schema: z.ZodType, value: unknown) => {
      try {
        parseInput(schema, value);
      } catch (e) {
        return (e as ProblemError).errors;
      }
      throw new Error('expected a problem');
    };
    expect(problem(hash, { hash: 'abc' })).toEqual([{ field: 'hash', message: 'must be sha256: followed by 64 lowercase hex digits' }]);
    expect(problem(bare, { code: 'abc' })).toEqual([{ field: 'code', message: 'must match the pattern /^[A-Z]{2}$/' }]);
    expect(problem(z.strictObject({ email: z.email() }), { email: 'x' })).toEqual([{ field: 'email', message: 'must be an email address, e.g. jane@example.org' }]);
    expect(problem(z.strictObject({ id: z.uuid() }), { id: 'x' })).toEqual([{ field: 'id', message: expect.stringMatching(/^must be a UUID/) }]);
  });
});

describe('parseInput with more problems than a problem lists', () => {
  const manyUnknown = (count: number, name = (i: number) => `field${i}`) => Object.fromEntries(Array.from({ length: count }, (_, i) => [name(i), 1]));
  const bodyOf = (p: ProblemError) => JSON.stringify({ detail: p.detail, errors: p.errors, ...p.extensions });

  it('lists the first 50 of 40,000 unknown fields, says how many there were, and stays a few kilobytes', () => {
    const p = problemOf(manyUnknown(40_000));
    expect(bodyOf(p).length).toBeLessThan(4 * 1024);
    expect(p.errors?.length).toBe(MAX_LISTED_FIELD_PROBLEMS);
    expect(p.errors?.[0]).toEqual({ field: 'field0', message: 'is not a known field' });
    expect(p.extensions).toEqual({ errorCount: 40_000 });
    expect(p.detail).toBe('40000 fields are invalid: field0, field1, field2, field3, field4, field5, field6, field7, field8, field9, and 39990 more.');
    expect(bodyOf(p).length).toBeLessThan(4 * 1024);
  });

  it('does the same for unknown fields of a nested object, counted with the other problems', () => {
    const p = problemOf({ name: 'x', when: '2026-01-01T00:00:00Z', kind: 'c', nested: { count: 1, ...manyUnknown(40_000) } });
    expect(bodyOf(p).length).toBeLessThan(8 * 1024);
    expect(p.errors?.length).toBe(MAX_LISTED_FIELD_PROBLEMS);
    expect(p.errors?.[0]).toEqual({ field: 'kind', message: 'must be one of: a, b' });
    expect(p.extensions).toEqual({ errorCount: 40_001 });
    expect(bodyOf(p).length).toBeLessThan(8 * 1024);
  });

  it('cuts the names of very long unknown fields', () => {
    const p = problemOf(manyUnknown(60, (i) => `${i}${'k'.repeat(10_000)}`));
    expect(p.errors?.every((e) => e.field.length <= MAX_FIELD_NAME_LENGTH + 1)).toBe(true);
    expect(bodyOf(p).length).toBeLessThan(16 * 1024);
  });

  it('lists every problem, without errorCount, up to the limit', () => {
    const p = problemOf(manyUnknown(MAX_LISTED_FIELD_PROBLEMS - 3));
    expect(p.errors?.length).toBe(MAX_LISTED_FIELD_PROBLEMS);
    expect(p.extensions).toEqual({});
  });
});
