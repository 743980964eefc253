import { problemOfAnswer, retryAfterSeconds } from './problems';

const NOW = Date.parse('2025-03-12T10:00:00Z');

describe('the problem an answer of the API means to the person', () => {
  it('reads the link and the code by their status, as the API documents them', () => {
    expect(problemOfAnswer('link', 404, null, NOW)).toEqual({ kind: 'invalid_link' });
    expect(problemOfAnswer('link', 410, null, NOW)).toEqual({ kind: 'expired' });
    expect(problemOfAnswer('link', 400, null, NOW)).toEqual({ kind: 'invalid_link' });
    expect(problemOfAnswer('code', 400, null, NOW)).toEqual({ kind: 'malformed_code' });
    expect(problemOfAnswer('code', 401, null, NOW)).toEqual({ kind: 'wrong_code', attemptsLeft: null });
    expect(problemOfAnswer('code', 403, null, NOW)).toEqual({ kind: 'locked' });
    expect(problemOfAnswer('code', 404, null, NOW)).toEqual({ kind: 'invalid_link' });
    expect(problemOfAnswer('code', 409, null, NOW)).toEqual({ kind: 'used' });
    expect(problemOfAnswer('code', 410, null, NOW)).toEqual({ kind: 'expired' });
  });

  it('reads a download by its own: a session that no longer opens the files, a file that is gone', () => {
    expect(problemOfAnswer('download', 401, null, NOW)).toEqual({ kind: 'session_ended' });
    expect(problemOfAnswer('download', 410, null, NOW)).toEqual({ kind: 'session_ended' });
    expect(problemOfAnswer('download', 404, null, NOW)).toEqual({ kind: 'file_gone' });
    expect(problemOfAnswer('download', 416, null, NOW)).toEqual({ kind: 'unavailable' });
  });

  it('tells how long to wait after too many tries, at any step', () => {
    for (const step of ['link', 'code', 'download'] as const) expect(problemOfAnswer(step, 429, '42', NOW)).toEqual({ kind: 'too_many_tries', retryAfterSeconds: 42 });
    expect(problemOfAnswer('code', 429, null, NOW)).toEqual({ kind: 'too_many_tries', retryAfterSeconds: null });
  });

  it('says the service could not answer for anything else', () => {
    for (const status of [500, 502, 503, 504, 302, 405, 415]) expect(problemOfAnswer('link', status, null, NOW)).toEqual({ kind: 'unavailable' });
  });
});

describe('Retry-After', () => {
  it('takes seconds or an HTTP date', () => {
    expect(retryAfterSeconds('30', NOW)).toBe(30);
    expect(retryAfterSeconds(' 0 ', NOW)).toBe(0);
    expect(retryAfterSeconds('Wed, 12 Mar 2025 10:02:00 GMT', NOW)).toBe(120);
    expect(retryAfterSeconds('Wed, 12 Mar 2025 09:00:00 GMT', NOW)).toBe(0);
  });

  it('caps a wait longer than a day, and ignores what it cannot read', () => {
    expect(retryAfterSeconds('999999999', NOW)).toBe(86_400);
    expect(retryAfterSeconds(null, NOW)).toBeNull();
    expect(retryAfterSeconds('soon', NOW)).toBeNull();
    expect(retryAfterSeconds('-5', NOW)).toBeNull();
    expect(retryAfterSeconds('1.5', NOW)).toBeNull();
    expect(retryAfterSeconds('9'.repeat(100), NOW)).toBeNull();
  });
});
