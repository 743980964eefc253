import { publicProblem } from './forwarder';

/** A service's problem names its internal path; the client must only ever see the public one. */
describe('publicProblem', () => {
  const problem = (body: Record<string, unknown>) => Buffer.from(JSON.stringify(body));
  const read = (b: Buffer) => JSON.parse(b.toString('utf8')) as Record<string, unknown>;

  it('rewrites the internal prefix in instance and detail', () => {
    const out = read(
      publicProblem('application/problem+json; charset=utf-8', problem({ status: 404, instance: '/internal/v1/timeline', detail: 'Cannot GET /internal/v1/timeline', code: 'SVC-BE-1002' })),
    );
    expect(out).toEqual({ status: 404, instance: '/api/v1/timeline', detail: 'Cannot GET /api/v1/timeline', code: 'SVC-BE-1002' });
    expect(JSON.stringify(out)).not.toContain('/internal/');
  });

  it('leaves other bodies as they are', () => {
    const json = problem({ id: 'x', note: '/internal/v1 is a word here' });
    expect(publicProblem('application/json', json)).toBe(json);
    const clean = problem({ status: 404, instance: '/api/v1/requests/x' });
    expect(publicProblem('application/problem+json', clean)).toBe(clean);
  });
});
