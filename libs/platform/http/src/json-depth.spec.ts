import { ProblemError } from '@dsar/platform/errors';
import { jsonDeeperThan, MAX_JSON_DEPTH, tooDeepProblem } from './json-body';

const nestedArrays = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown;
const nestedObjects = (levels: number) => JSON.parse('{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1)) as unknown;

describe('JSON nesting depth', () => {
  it('counts the top-level value as level 1; scalars add no level', () => {
    expect(jsonDeeperThan('text', 0)).toBe(false);
    expect(jsonDeeperThan({}, 1)).toBe(false);
    expect(jsonDeeperThan({}, 0)).toBe(true);
    expect(jsonDeeperThan({ a: 1, b: 'x', c: null }, 1)).toBe(false);
    expect(jsonDeeperThan({ a: [1] }, 1)).toBe(true);
    expect(jsonDeeperThan({ a: [1] }, 2)).toBe(false);
  });

  it.each([
    ['arrays', nestedArrays],
    ['objects', nestedObjects],
  ])('lets %s nest up to the limit, and not one level more', (_kind, nested) => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('answers for any depth without recursion (a 1 MB body of brackets is half a million levels)', () => {
    expect(jsonDeeperThan(nestedArrays(500_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('is a 400 validation problem that names the limit', () => {
    const problem = tooDeepProblem();
    expect(problem).toBeInstanceOf(ProblemError);
    expect(problem.definition).toMatchObject({ code: 'SVC-BE-1102', status: 400 });
    expect(problem.detail).toBe(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
    expect(problem.errors).toEqual([{ field: '(body)', message: expect.stringContaining(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`) }]);
  });
});
