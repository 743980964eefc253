import { upstreamProblem } from './upstream-problem';

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return { status, headers: new Headers(headers), body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)) };
}

describe('upstreamProblem', () => {
  it('keeps the catalog entry, detail, field problems, extensions and Retry-After of the service that decided', () => {
    const problem = upstreamProblem(
      'lifecycle-clock',
      answer(
        409,
        {
          type: 'x',
          title: 't',
          status: 409,
          code: 'SVC-BE-1401',
          name: 'LIFECYCLE_TRANSITION_DISALLOWED',
          detail: 'Request r is closed.',
          currentStatus: 'closed',
          errors: [{ field: 'a', message: 'b' }],
        },
        { 'retry-after': '3' },
      ),
    );
    expect(problem.definition.name).toBe('LIFECYCLE_TRANSITION_DISALLOWED');
    expect(problem.detail).toBe('Request r is closed.');
    expect(problem.errors).toEqual([{ field: 'a', message: 'b' }]);
    expect(problem.extensions).toEqual({ currentStatus: 'closed' });
    expect(problem.headers).toEqual({ 'retry-after': '3' });
  });

  it("keeps another status the catalog lists for the code, and the code's own status otherwise", () => {
    const unavailable = upstreamProblem('fulfilment-delivery', answer(503, { name: 'MANIFEST_ARTIFACT_UPLOAD_FAILED', code: 'SVC-BE-1206', status: 503 }));
    expect(unavailable.status).toBe(503);
    expect(upstreamProblem('x', answer(400, { name: 'MANIFEST_ARTIFACT_UPLOAD_FAILED' })).status).toBe(400);
    expect(upstreamProblem('x', answer(500, { name: 'LIFECYCLE_TRANSITION_DISALLOWED' })).status).toBe(409);
  });

  it('turns an answer that is not a catalog problem into an internal error, or 503 when the service said so', () => {
    expect(upstreamProblem('x', answer(500, 'boom')).definition.name).toBe('INTERNAL_ERROR');
    expect(upstreamProblem('x', answer(418, { name: 'NOT_OURS' })).definition.name).toBe('INTERNAL_ERROR');
    expect(upstreamProblem('x', answer(503, '')).definition.name).toBe('SERVICE_UNAVAILABLE');
  });
});
