import { ProblemError } from '@dsar/platform/errors';
import { RouteMatcher } from './route-matcher';
import { ROUTES } from './routes';

describe('RouteMatcher', () => {
  const matcher = new RouteMatcher(ROUTES);
  const problemOf = (fn: () => unknown): ProblemError => {
    try {
      fn();
    } catch (e) {
      return e as ProblemError;
    }
    throw new Error('expected a problem');
  };

  it('finds a literal path before a parameter at the same place', () => {
    expect(matcher.resolve('POST', '/requests/capture').route.operationId).toBe('captureRequest');
    expect(matcher.resolve('GET', '/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e').params).toEqual({ idOrReference: '2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e' });
  });

  it("a literal path is not a parameter value: GET /requests/capture is 405 with only the literal route's method", () => {
    const problem = problemOf(() => matcher.resolve('GET', '/requests/capture'));
    expect(problem.definition.name).toBe('METHOD_NOT_ALLOWED');
    expect(problem.headers).toEqual({ Allow: 'POST' });
  });

  it('ignores a trailing slash and matches methods case-insensitively', () => {
    expect(matcher.resolve('get', '/requests/').route.operationId).toBe('listRequests');
  });

  it('answers 405 with the allowed methods for a known path', () => {
    const problem = problemOf(() => matcher.resolve('DELETE', '/requests'));
    expect(problem.definition.name).toBe('METHOD_NOT_ALLOWED');
    expect(problem.headers).toEqual({ Allow: 'POST, GET' });
  });

  it('resolves HEAD to the GET route of the path, and to 405 where there is none', () => {
    expect(matcher.resolve('HEAD', '/requests').route.operationId).toBe('listRequests');
    expect(matcher.resolve('head', '/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e').route.method).toBe('GET');
    expect(problemOf(() => matcher.resolve('HEAD', '/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/clock/resume')).definition.name).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers 404 for an unknown path', () => {
    expect(problemOf(() => matcher.resolve('GET', '/requests/a/b/c')).definition.name).toBe('ROUTE_NOT_FOUND');
    expect(problemOf(() => matcher.resolve('GET', '/')).definition.name).toBe('ROUTE_NOT_FOUND');
  });

  it('declares every route once, with a unique operation id', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ROUTES.map((r) => r.operationId)).size).toBe(ROUTES.length);
  });
});
