import { ProblemError } from '@dsar/platform/errors';
import { assertNormalizedPath, unsafePathReason } from './request-path';

describe('paths in normalized form only', () => {
  it.each([
    '/api/v1/requests/../timeline',
    '/api/v1/requests/./x',
    '/api/v1/requests/%2e%2e/timeline',
    '/api/v1/requests/%2E%2E/timeline',
    '/api/v1/requests/.%2e/timeline',
    '/api/v1/requests/%2e/timeline',
    '/api/v1/requests/..',
    '/api/v1/requests/a%2fb',
    '/api/v1/requests/a%2F..%2Fb',
    '/api/v1/requests/a%5cb',
    '/api/v1/requests\\..\\timeline',
    '/api/v1/requests/%252e%252e/timeline',
    '/api/v1/requests/%zz',
    '/api/v1/requests/x/verification/evidence/ev_%00/download',
    '/api/v1/requests/a%0d%0ab',
    '/api/v1/requests/a%1bb',
    '/api/v1/requests/a%7f',
    'requests',
  ])('refuses %s', (path) => {
    expect(unsafePathReason(path)).toBeDefined();
  });

  it.each(['/api/v1/requests', '/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/timeline', '/api/v1/policies/eu-gdpr', '/a/.hidden', '/a/...', '/a/b%20c', '/'])('takes %s', (path) => {
    expect(unsafePathReason(path)).toBeUndefined();
  });

  it('checks the path only, not the query, and answers 400 REQUEST_PATH_INVALID', () => {
    expect(() => assertNormalizedPath('/api/v1/requests?next=../x')).not.toThrow();
    let problem: ProblemError | undefined;
    try {
      assertNormalizedPath('/api/v1/requests/%2e%2e/timeline?x=1');
    } catch (e) {
      problem = e as ProblemError;
    }
    expect(problem?.definition).toMatchObject({ name: 'REQUEST_PATH_INVALID', status: 400 });
    expect(problem?.detail).not.toContain('/internal/');
  });
});
