import { parse } from 'node:querystring';
import { z } from 'zod';
import { ProblemError } from '@dsar/platform/errors';
import { assertPublishedQuery } from './query-rules';
import { queryProblems } from './route-table-checks';
import type { GatewayRoute } from './route-types';
import { ROUTES } from './routes';

const route = (path: string): GatewayRoute => {
  const found = ROUTES.find((r) => r.method === 'GET' && r.path === path);
  if (!found) throw new Error(`no GET ${path}`);
  return found;
};

function problemOf(fn: () => void): ProblemError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProblemError) return e;
    throw e;
  }
  throw new Error('expected a problem');
}

describe('query rules', () => {
  it('a route that publishes no query takes no parameter: each unknown one is named', () => {
    expect(() => assertPublishedQuery(route('/requests/:id/timeline'), parse(''))).not.toThrow();
    const problem = problemOf(() => assertPublishedQuery(route('/requests/:id/timeline'), parse('expand=all&_=1712345678')));
    expect(problem.definition.name).toBe('REQUEST_VALIDATION_FAILED');
    expect(problem.errors).toEqual([
      { field: 'expand', message: 'is not a known field' },
      { field: '_', message: 'is not a known field' },
    ]);
    expect(problem.message).toBe('2 fields are invalid in the query: expand, _.');
  });

  it('a route with a query takes its published parameters and refuses others, misspelt ones included', () => {
    expect(() => assertPublishedQuery(route('/requests'), parse('status=received,in_progress&limit=20'))).not.toThrow();
    const problem = problemOf(() => assertPublishedQuery(route('/requests'), parse('stauts=received')));
    expect(problem.errors).toEqual([{ field: 'stauts', message: 'is not a known field' }]);
    expect(problemOf(() => assertPublishedQuery(route('/requests'), parse('limit=0'))).errors).toEqual([{ field: 'limit', message: expect.any(String) }]);
  });

  it('the request detail takes `requestor` as `clear` or `masked`, and nothing else', () => {
    const detail = route('/requests/:idOrReference');
    for (const query of ['', 'requestor=clear', 'requestor=masked']) expect(() => assertPublishedQuery(detail, parse(query))).not.toThrow();
    expect(problemOf(() => assertPublishedQuery(detail, parse('requestor=hidden'))).errors).toEqual([{ field: 'requestor', message: expect.stringContaining('masked') }]);
    expect(problemOf(() => assertPublishedQuery(detail, parse('requestor=masked&masked=true'))).errors).toEqual([{ field: 'masked', message: 'is not a known field' }]);
  });

  it('every query of the route table is strict, and a table with a loose one is refused', () => {
    expect(queryProblems(ROUTES)).toEqual([]);
    const loose: GatewayRoute = { ...route('/requests'), query: z.object({ limit: z.string().optional() }) };
    const passing: GatewayRoute = { ...route('/requests'), query: z.looseObject({ limit: z.string().optional() }) };
    expect(queryProblems([loose, passing])).toEqual([
      'GET /requests: its query is not a z.strictObject (an unknown parameter would pass)',
      'GET /requests: its query is not a z.strictObject (an unknown parameter would pass)',
    ]);
  });
});
