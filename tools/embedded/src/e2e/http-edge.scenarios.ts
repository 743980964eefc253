import { request as httpRequest } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import { INTERNAL_API_PREFIX, type Principal } from '@dsar/contracts';
import type { TestSystem } from './systems';
import { ApiClient, intake } from './api-client';
import { KEYS } from './gateway-intake.scenarios';
import { signatureTime } from '@dsar/platform/http';
import { signedInternalHeaders } from './internal-identity';

/**
 * The HTTP edge end to end, through the real HTTP surface of every service:
 * forged internal identity, encoded bodies, paths with dot segments, the
 * headers of the answers, and HEAD. The same scenarios run in embedded mode
 * and against PostgreSQL and Kafka. The system runs with HTTP_BODY_LIMIT=100kb.
 */

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json?: Record<string, any>;
}

/** A request with the target sent exactly as given: fetch would resolve the dot segments itself. */
export function raw(baseUrl: string, method: string, target: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path: target, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, any> | undefined;
        try {
          json = text ? (JSON.parse(text) as Record<string, any>) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Another key of the right length: what an attacker without the real key signs with. */
const FORGED_KEY = 'forged-key-forged-key-forged-key-0000';

export function httpEdgeScenarios(getSystem: () => TestSystem): void {
  let api: ApiClient;
  let requestId: string;
  const admin: Principal = { id: 'key:0123456789abcdef', tenantId: KEYS.adminA.tenantId, roles: ['admin'] };
  const serviceUrl = (name: string) => getSystem().services.get(name)!.url;

  beforeAll(async () => {
    api = new ApiClient(getSystem().gatewayUrl, KEYS.adminA.token);
    const created = await api.post('/requests/capture', intake({ jurisdiction: 'DE' }, { receivedAt: '2026-03-03T10:00:00Z' }));
    expect(created.status).toBe(202);
    requestId = created.body.id as string;
  });

  describe('internal identity cannot be forged', () => {
    const detailUrl = () => `${serviceUrl('lifecycle-clock')}${INTERNAL_API_PREFIX}/requests/${requestId}`;
    const identityOnly = (principal: Principal): Record<string, string> => ({
      'x-dsar-tenant-id': principal.tenantId,
      'x-dsar-principal': principal.id,
      'x-dsar-roles': principal.roles.join(','),
    });

    it('a call signed with the system key reads the request (the control case)', async () => {
      const res = await fetch(detailUrl(), { headers: signedInternalHeaders(getSystem().internalAuthKey, 'GET', detailUrl(), admin) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(requestId);
    });

    it('the right identity headers without a signature → 401', async () => {
      const res = await fetch(detailUrl(), { headers: identityOnly(admin) });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ status: 401, code: 'SVC-BE-1303', name: 'INTERNAL_IDENTITY_INVALID' });
    });

    it('a signature made with another key → 401', async () => {
      const res = await fetch(detailUrl(), { headers: signedInternalHeaders(FORGED_KEY, 'GET', detailUrl(), admin) });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1303' });
    });

    it('an expired timestamp → 401, however valid the signature', async () => {
      const res = await fetch(detailUrl(), { headers: signedInternalHeaders(getSystem().internalAuthKey, 'GET', detailUrl(), admin, signatureTime() - 5 * 60_000) });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1303', detail: expect.stringContaining('expired') });
    });

    it('a valid signature replayed for another request, or another tenant → 401', async () => {
      const signedForList = signedInternalHeaders(getSystem().internalAuthKey, 'GET', `${serviceUrl('lifecycle-clock')}${INTERNAL_API_PREFIX}/requests`, admin);
      expect((await fetch(detailUrl(), { headers: signedForList })).status).toBe(401);
      const signed = signedInternalHeaders(getSystem().internalAuthKey, 'GET', detailUrl(), admin);
      expect((await fetch(detailUrl(), { headers: { ...signed, 'x-dsar-tenant-id': KEYS.operatorB.tenantId } })).status).toBe(401);
    });

    it('an unsigned intake straight to intake-gateway → 401, and nothing is recorded', async () => {
      const before = (await api.get('/requests?limit=1')).body.total as number;
      const res = await fetch(`${serviceUrl('intake-gateway')}${INTERNAL_API_PREFIX}/requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...identityOnly(admin) },
        body: JSON.stringify(intake()),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1303' });
      expect((await api.get('/requests?limit=1')).body.total).toBe(before);
    });

    it('an intake through the gateway still reaches lifecycle-clock: the service-to-service call is signed too', async () => {
      const created = await api.post('/requests', intake({}, { receivedAt: '2026-03-05T10:00:00Z' }));
      expect(created.status).toBe(202);
      expect((await api.get(`/requests/${created.body.id}`)).status).toBe(200);
    });

    it('calls without identity stay open: health and metrics of every service', async () => {
      for (const [name, service] of getSystem().services) {
        expect({ name, live: (await fetch(`${service.url}/health/live`)).status }).toEqual({ name, live: 200 });
      }
      expect((await fetch(`${serviceUrl('lifecycle-clock')}/metrics`)).status).toBe(200);
    });
  });

  describe('Content-Encoding of request bodies', () => {
    const body = () => Buffer.from(JSON.stringify(intake({}, { receivedAt: '2026-03-06T10:00:00Z' })));
    const send = (encoding: string, payload: Buffer) =>
      fetch(`${getSystem().gatewayUrl}/api/v1/requests/capture`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.adminA.token}`, 'content-type': 'application/json', 'content-encoding': encoding },
        body: payload,
      });

    it.each([
      ['gzip', () => gzipSync(body())],
      ['x-gzip', () => gzipSync(body())],
      ['deflate', () => deflateSync(body())],
      ['identity', () => body()],
    ])('%s is decoded: 202', async (encoding, make) => {
      const res = await send(encoding, make());
      expect(res.status).toBe(202);
      const created = (await res.json()) as { id: string };
      expect((await api.get(`/requests/${created.id}`)).body.intakeSource).toMatchObject({ receivedAt: '2026-03-06T10:00:00Z' });
    });

    it.each(['br', 'compress', 'zstd', 'x-unknown-coding', 'gzip, gzip'])('%s → 415 CONTENT_ENCODING_UNSUPPORTED with Accept-Encoding', async (encoding) => {
      const res = await send(encoding, gzipSync(body()));
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('accept-encoding')).toBe('gzip, deflate');
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1109', name: 'CONTENT_ENCODING_UNSUPPORTED' });
    });

    it.each([
      ['truncated gzip', 'gzip', () => gzipSync(body()).subarray(0, 40)],
      ['truncated deflate', 'deflate', () => deflateSync(body()).subarray(0, 40)],
      ['plain text sent as gzip', 'gzip', () => body()],
    ])('%s → 400 REQUEST_BODY_ENCODING_INVALID', async (_case, encoding, make) => {
      const res = await send(encoding, make());
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1110', name: 'REQUEST_BODY_ENCODING_INVALID' });
    });

    it('a zip bomb (a small body that inflates past the limit) → 413, at the gateway and at a service', async () => {
      const bomb = gzipSync(Buffer.from(JSON.stringify(intake({}, { rawText: ' '.repeat(20_000_000) }))));
      expect(bomb.length).toBeLessThan(100_000);
      const res = await send('gzip', bomb);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1103' });
      const url = `${serviceUrl('lifecycle-clock')}${INTERNAL_API_PREFIX}/requests`;
      const direct = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', url, admin) },
        body: bomb,
      });
      expect(direct.status).toBe(413);
    });

    it('a service decodes for itself as well: br to an internal port → 415, not 500', async () => {
      const url = `${serviceUrl('lifecycle-clock')}${INTERNAL_API_PREFIX}/requests`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': 'br', ...signedInternalHeaders(getSystem().internalAuthKey, 'POST', url, admin) },
        body: body(),
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ code: 'SVC-BE-1109' });
    });
  });

  describe('paths with dot segments', () => {
    const targets = [
      '/api/v1/requests/%2e%2e/timeline',
      '/api/v1/requests/%2E%2E/timeline',
      '/api/v1/requests/.%2e/timeline',
      '/api/v1/requests/../timeline',
      '/api/v1/requests/./timeline',
      '/api/v1/requests/%2e/timeline',
      '/api/v1/requests/x%2f..%2ftimeline',
      '/api/v1/requests/x%2F..%2Ftimeline',
      '/api/v1/requests/x%5c..%5ctimeline',
      '/api/v1/requests\\..\\timeline',
      '/api/v1/policies/%2e%2e/%2e%2e/requests',
    ];

    it.each(targets)('%s → 400 REQUEST_PATH_INVALID, before authentication, naming no internal path', async (target) => {
      for (const headers of [{ authorization: `Bearer ${KEYS.adminA.token}` }, {}] as Record<string, string>[]) {
        const res = await raw(getSystem().gatewayUrl, 'GET', target, headers);
        expect({ target, status: res.status }).toEqual({ target, status: 400 });
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json).toMatchObject({ code: 'SVC-BE-1108', name: 'REQUEST_PATH_INVALID' });
        expect(res.text).not.toContain('/internal/');
        expect(res.text).not.toContain(INTERNAL_API_PREFIX);
      }
    });

    it('a POST with a dot segment is refused the same way, and creates nothing', async () => {
      const before = (await api.get('/requests?limit=1')).body.total as number;
      const res = await raw(
        getSystem().gatewayUrl,
        'POST',
        '/api/v1/requests/%2e%2e/requests',
        { authorization: `Bearer ${KEYS.adminA.token}`, 'content-type': 'application/json' },
        Buffer.from(JSON.stringify(intake())),
      );
      expect(res.status).toBe(400);
      expect((await api.get('/requests?limit=1')).body.total).toBe(before);
    });

    it('the same paths in normalized form still work', async () => {
      expect((await raw(getSystem().gatewayUrl, 'GET', `/api/v1/requests/${requestId}/timeline`, { authorization: `Bearer ${KEYS.adminA.token}` })).status).toBe(200);
    });
  });

  describe('answer headers', () => {
    it('no X-Powered-By from the gateway, on success and on errors', async () => {
      for (const res of [await api.get('/requests'), await api.get('/nothing-here'), await api.get('/requests', { token: null }), await fetch(`${getSystem().gatewayUrl}/health/ready`)]) {
        expect(res.headers.get('x-powered-by')).toBeNull();
      }
    });

    it('no X-Powered-By from any internal service', async () => {
      for (const [name, service] of getSystem().services) {
        for (const path of ['/health/live', '/metrics', `${INTERNAL_API_PREFIX}/nothing-here`]) {
          expect({ name, path, poweredBy: (await fetch(`${service.url}${path}`)).headers.get('x-powered-by') }).toEqual({ name, path, poweredBy: null });
        }
      }
    });
  });

  describe('HEAD', () => {
    /** The headers that must agree between a HEAD and its GET: all but those that change with every call. */
    const VOLATILE = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'keep-alive', 'connection']);
    const stable = (headers: Record<string, string | string[] | undefined>) => {
      // A problem body carries its own requestId, so its ETag differs from call to call, GET or HEAD.
      const problem = String(headers['content-type']).startsWith('application/problem+json');
      return Object.fromEntries(Object.entries(headers).filter(([k]) => !VOLATILE.has(k) && !(problem && k === 'etag')));
    };

    it.each([
      ['the queue', () => '/api/v1/requests?limit=2'],
      ['a request', () => `/api/v1/requests/${requestId}`],
      ['a timeline', () => `/api/v1/requests/${requestId}/timeline`],
      ['a policy pack', () => '/api/v1/policies/eu-gdpr'],
      ['a missing request', () => '/api/v1/requests/00000000-0000-4000-8000-000000000000'],
    ])('HEAD on %s answers like GET, without a body', async (_case, target) => {
      const auth = { authorization: `Bearer ${KEYS.adminA.token}` };
      const get = await raw(getSystem().gatewayUrl, 'GET', target(), auth);
      const head = await raw(getSystem().gatewayUrl, 'HEAD', target(), auth);
      expect(head.status).toBe(get.status);
      expect(head.text).toBe('');
      expect(stable(head.headers)).toEqual(stable(get.headers));
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
    });

    it('HEAD needs a token like GET, and is 405 where the path has no GET', async () => {
      expect((await raw(getSystem().gatewayUrl, 'HEAD', '/api/v1/requests')).status).toBe(401);
      const res = await raw(getSystem().gatewayUrl, 'HEAD', `/api/v1/requests/${requestId}/clock/resume`, { authorization: `Bearer ${KEYS.adminA.token}` });
      expect(res.status).toBe(405);
    });
  });
  describe('long request targets and hostile input, without a token', () => {
    /** A target of exactly `length` characters under /api/v1, of `unit` repeated. */
    const hostileTarget = (unit: string, length: number) => `/api/v1/${unit.repeat(length)}`.slice(0, length);
    const HOSTILE_UNITS = ['a', 'a.', '@', '%41'];

    it.each(HOSTILE_UNITS)('a 16 KB target of %s → 414 URI_TOO_LONG, with or without a token, and the target is not echoed', async (unit) => {
      for (const headers of [{}, { authorization: `Bearer ${KEYS.adminA.token}` }] as Record<string, string>[]) {
        const res = await raw(getSystem().gatewayUrl, 'GET', hostileTarget(unit, 16_000), headers);
        expect({ unit, status: res.status }).toEqual({ unit, status: 414 });
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json).toMatchObject({ status: 414, code: 'SVC-BE-1007', name: 'URI_TOO_LONG' });
        expect(res.text.length).toBeLessThan(1024);
      }
    });

    it('the limit is 8192 characters of path and query: one more is 414, up to it the target is routed', async () => {
      const base = '/api/v1/requests?limit=1&q=';
      expect((await raw(getSystem().gatewayUrl, 'GET', `${base}${'x'.repeat(8192 - base.length + 1)}`)).status).toBe(414);
      const routed = await raw(getSystem().gatewayUrl, 'GET', `${base}${'x'.repeat(8192 - base.length)}`);
      expect(routed.status).toBe(401);
      expect(routed.json).toMatchObject({ code: 'SVC-BE-1301' });
    });

    it("every service's own port refuses a target over the limit the same way", async () => {
      for (const [name, service] of getSystem().services) {
        const res = await raw(service.url, 'GET', `${INTERNAL_API_PREFIX}/${'a'.repeat(9_000)}`);
        expect({ name, status: res.status, code: res.json?.code }).toEqual({ name, status: 414, code: 'SVC-BE-1007' });
      }
    });

    it('a request line and headers over 16 KiB are refused by Node itself: 431, no body, the connection closed', async () => {
      const res = await raw(getSystem().gatewayUrl, 'GET', '/api/v1/requests', { 'x-filler': 'a'.repeat(17_000) });
      expect(res.status).toBe(431);
      expect(res.text).toBe('');
      expect(res.headers.connection).toBe('close');
    });

    // Last: it spends this address's budget for unauthenticated requests (60 a minute by default).
    it('without a valid token, an address gets 429 with Retry-After once its budget is spent; a valid token still passes', async () => {
      let res: RawResponse | undefined;
      for (let i = 0; i <= 60 && res?.status !== 429; i++) res = await raw(getSystem().gatewayUrl, 'GET', '/api/v1/requests', { authorization: 'Bearer not-a-real-token-0123456789abcdef' });
      expect(res?.status).toBe(429);
      expect(res?.json).toMatchObject({ code: 'SVC-BE-1004', name: 'RATE_LIMITED' });
      expect(Number(res?.headers['retry-after'])).toBeGreaterThan(0);
      expect((await raw(getSystem().gatewayUrl, 'GET', '/api/v1/nothing-here')).status).toBe(429);
      expect((await api.get('/requests?limit=1')).status).toBe(200);
    });
  });
}
