import { type Fetch, linkViewOf, openDownload, readLink, sendCode } from './api';

const link = { linkId: '5b0e6f0c-2f4a-4d8e-9a61-7c3d2b1a0f9e', credential: 'Qm9va3NoZWxmLWxhbXAtb3JjaGFyZC1yaXZlci1zdG8' };
const delivery = { linkId: link.linkId, reference: 'DSAR-5B0E6F0C', language: 'fr', expiresAt: '2025-03-13T10:00:00.000Z', state: 'code_required', attemptsLeft: 5 };
const artifact = { artifactId: '0e9f1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f', filename: 'profile.json', title: 'Profile', contentType: 'application/json', size: 2048, sha256: 'ab'.repeat(32) };
const session = { linkId: link.linkId, session: 'c2Vzc2lvbi1mb3ItdGhlLWRvd25sb2FkLXBhZ2UtdGV', sessionExpiresAt: '2025-03-13T10:00:00.000Z', artifacts: [artifact] };

interface Call {
  url: string;
  init: RequestInit;
}

/** A fetch that records each call and answers `answer`. */
function fakeFetch(answer: () => Response | Promise<Response>): { fetch: Fetch; calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return answer();
    },
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': status < 300 ? 'application/json' : 'application/problem+json', ...headers } });

describe("the page's calls to the API", () => {
  it('reads the link with its credential in a header, sending no cookie or referrer', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, delivery));
    expect(await readLink(link, fetch)).toEqual({ ok: true, value: { reference: 'DSAR-5B0E6F0C', language: 'fr', expiresAt: delivery.expiresAt, state: 'code_required', attemptsLeft: 5 } });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`/api/v1/portal/deliveries/${link.linkId}`);
    expect(calls[0].url).not.toContain(link.credential);
    expect(calls[0].init).toMatchObject({ method: 'GET', credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', redirect: 'error' });
    expect(calls[0].init.headers).toMatchObject({ 'x-delivery-link': link.credential });
  });

  it('sends the code as JSON and takes the session and the files', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, session));
    expect(await sendCode(link, '48151623', fetch)).toEqual({ ok: true, value: { session: session.session, sessionExpiresAt: session.sessionExpiresAt, artifacts: [artifact] } });
    expect(calls[0].url).toBe(`/api/v1/portal/deliveries/${link.linkId}/code`);
    expect(calls[0].init).toMatchObject({ method: 'POST', body: '{"code":"48151623"}' });
    expect(calls[0].init.headers).toMatchObject({ 'content-type': 'application/json', 'x-delivery-link': link.credential });
  });

  it('downloads with the session in a header, and hands back the answer to read', async () => {
    const { fetch, calls } = fakeFetch(() => new Response('bytes', { status: 200, headers: { 'content-length': '5' } }));
    const outcome = await openDownload(link.linkId, session.session, artifact.artifactId, fetch);
    expect(outcome.ok && (await outcome.value.text())).toBe('bytes');
    expect(calls[0].url).toBe(`/api/v1/portal/deliveries/${link.linkId}/artifacts/${artifact.artifactId}`);
    expect(calls[0].init.headers).toEqual({ 'x-portal-session': session.session });
  });

  it('tells each refusal by what it means at its step', async () => {
    const problem = { type: 'about:blank', title: 'Step-up token invalid', status: 401, code: 'SVC-BE-1214' };
    expect(await sendCode(link, '00000000', fakeFetch(() => json(401, problem)).fetch)).toEqual({ ok: false, problem: { kind: 'wrong_code', attemptsLeft: null } });
    expect(await openDownload(link.linkId, session.session, artifact.artifactId, fakeFetch(() => json(401, problem)).fetch)).toEqual({ ok: false, problem: { kind: 'session_ended' } });
    expect(await readLink(link, fakeFetch(() => json(404, { ...problem, status: 404 })).fetch)).toEqual({ ok: false, problem: { kind: 'invalid_link' } });
    expect(await readLink(link, fakeFetch(() => json(429, {}, { 'retry-after': '17' })).fetch)).toEqual({ ok: false, problem: { kind: 'too_many_tries', retryAfterSeconds: 17 } });
  });

  it('tells no answer at all from an answer that is not what the API sends', async () => {
    const failing: Fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await readLink(link, failing)).toEqual({ ok: false, problem: { kind: 'network' } });
    expect(await readLink(link, fakeFetch(() => new Response('<html>proxy</html>', { status: 200, headers: { 'content-type': 'text/html' } })).fetch)).toEqual({
      ok: false,
      problem: { kind: 'unavailable' },
    });
    expect(await sendCode(link, '48151623', fakeFetch(() => json(200, { ...session, artifacts: [] })).fetch)).toEqual({ ok: false, problem: { kind: 'unavailable' } });
  });
});

describe('a link answer', () => {
  it('is taken field by field, its language read as English when the page has no texts in it', () => {
    expect(linkViewOf({ ...delivery, language: 'sv' })?.language).toBe('en');
    expect(linkViewOf({ ...delivery, state: 'gone' })).toBeNull();
    expect(linkViewOf({ ...delivery, attemptsLeft: -1 })).toBeNull();
    expect(linkViewOf({ ...delivery, reference: 7 })).toBeNull();
    expect(linkViewOf(null)).toBeNull();
  });
});
