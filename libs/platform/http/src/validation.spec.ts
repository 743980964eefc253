import { z } from 'zod';
import { ProblemError } from '@dsar/platform/errors';
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
