import { networkProblem, problemFromResponse, titleOfStatus } from './problem';

describe('reading a problem from an error answer', () => {
  it('takes the title, detail, code and field problems of an application/problem+json body', () => {
    const body = JSON.stringify({
      type: 'https://dsar.dev/problems/request-validation-failed',
      title: 'Request validation failed',
      status: 422,
      detail: 'Two fields are invalid.',
      code: 'SVC-BE-1102',
      errors: [
        { field: 'reason', message: 'is required' },
        { field: 'at', message: 'must be a timestamp' },
      ],
    });
    expect(problemFromResponse(422, 'application/problem+json; charset=utf-8', body)).toEqual({
      status: 422,
      title: 'Request validation failed',
      detail: 'Two fields are invalid.',
      code: 'SVC-BE-1102',
      errors: [
        { field: 'reason', message: 'is required' },
        { field: 'at', message: 'must be a timestamp' },
      ],
    });
  });

  it('keeps a 409 with its code and no field list', () => {
    const body = JSON.stringify({ title: 'Lifecycle transition disallowed', status: 409, code: 'SVC-BE-1401', detail: 'acknowledge is not allowed', allowedActions: ['close'] });
    const problem = problemFromResponse(409, 'application/problem+json', body);
    expect(problem).toEqual({ status: 409, title: 'Lifecycle transition disallowed', detail: 'acknowledge is not allowed', code: 'SVC-BE-1401' });
    expect(problem).not.toHaveProperty('errors');
  });

  it("uses the answer's HTTP status when the body's is missing or not a whole number", () => {
    expect(problemFromResponse(404, 'application/json', JSON.stringify({ title: 'Resource not found', status: '404' })).status).toBe(404);
    expect(problemFromResponse(404, 'application/json', JSON.stringify({ title: 'Resource not found' })).status).toBe(404);
  });

  it('never shows the text of a body that is not a JSON problem', () => {
    const html = '<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>';
    expect(problemFromResponse(502, 'text/html', html)).toEqual({ status: 502, title: 'The service failed to answer', detail: null, code: null });
    expect(problemFromResponse(500, 'application/problem+json', '{not json')).toEqual({ status: 500, title: 'The service failed to answer', detail: null, code: null });
    expect(problemFromResponse(400, null, '')).toEqual({ status: 400, title: 'The request failed (HTTP 400)', detail: null, code: null });
  });

  it('takes a JSON body without a title, or not an object, as no problem at all', () => {
    expect(problemFromResponse(403, 'application/json', JSON.stringify({ message: 'nope' })).title).toBe('Not allowed');
    expect(problemFromResponse(403, 'application/json', JSON.stringify(['a'])).title).toBe('Not allowed');
    expect(problemFromResponse(403, 'application/json', 'null').title).toBe('Not allowed');
  });

  it('drops field problems without a message, keeps a field-less one, and reads fields of the wrong type as absent', () => {
    const body = JSON.stringify({ title: 'Invalid', code: 7, detail: ['x'], errors: [{ field: 'a' }, { message: 'whole body is wrong' }, 'text', null] });
    expect(problemFromResponse(400, 'application/problem+json', body)).toEqual({ status: 400, title: 'Invalid', detail: null, code: null, errors: [{ field: '', message: 'whole body is wrong' }] });
  });

  it('caps the field problems and the length of each text', () => {
    const errors = Array.from({ length: 50 }, (_, i) => ({ field: `f${i}`, message: 'bad' }));
    const problem = problemFromResponse(400, 'application/problem+json', JSON.stringify({ title: 'x'.repeat(5000), errors }));
    expect(problem.errors).toHaveLength(20);
    expect(problem.title).toHaveLength(2000);
  });

  it('names the answers that carry no title by their status', () => {
    expect([401, 403, 404, 409, 429, 503].map(titleOfStatus)).toEqual(['Not signed in', 'Not allowed', 'Not found', 'Conflict', 'Too many requests', 'The service failed to answer']);
  });

  it('makes a problem of a call that got no answer', () => {
    expect(networkProblem(new TypeError('Failed to fetch'))).toEqual({ status: 0, title: 'The service could not be reached', detail: 'Failed to fetch', code: null });
    expect(networkProblem('weird')).toEqual({ status: 0, title: 'The service could not be reached', detail: null, code: null });
  });
});
