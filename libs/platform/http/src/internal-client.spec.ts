import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { IdentityHeaders, type Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { serveInProcess } from './in-process-connections';
import { callService, openServiceStream, readStreamedBody } from './internal-client';
import { InternalAuthKey, verifyIdentity } from './internal-identity';
import { type RequestContext, runInRequestContext } from './request-context';

/**
 * Every behaviour of the client holds over both ways of reaching a service: its port (another process) and an
 * in-memory connection (a service of the same process, `serveInProcess`).
 */
type Transport = 'over TCP' | 'in process';
const TRANSPORTS: Transport[] = ['over TCP', 'in process'];

/** Starts `server` on a loopback port, reached `transport`; its URL and how to close it (every connection cut). */
async function listen(server: Server, transport: Transport): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const withdraw = transport === 'in process' ? serveInProcess(url, server) : undefined;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        withdraw?.();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(TRANSPORTS)('the internal client %s', (transport) => {
  /** A service on a loopback port answering with `handle`; the requests it saw, body included. */
  async function service(
    handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
  ): Promise<{ url: string; seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[]; close: () => Promise<void>; server: Server }> {
    const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        handle(req, res, body);
      });
    });
    return { ...(await listen(server, transport)), seen, server };
  }

  async function problemOf(call: Promise<unknown>): Promise<ProblemError> {
    try {
      await call;
    } catch (e) {
      if (e instanceof ProblemError) return e;
      throw e;
    }
    throw new Error('the call did not fail');
  }

  describe('callService, a short call', () => {
    it('sends method, path, headers and the text body, and returns the answer as it came, repeated headers included', async () => {
      const svc = await service((_req, res) => {
        res.setHeader('content-type', 'application/problem+json');
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.setHeader('retry-after', '3');
        res.statusCode = 409;
        res.end('{"code":"SVC-BE-1401"}');
      });
      try {
        const res = await callService('lifecycle-clock', svc.url, { method: 'POST', path: '/internal/v1/x?y=1', headers: { 'content-type': 'application/json', 'x-tenant': 't1' }, body: '{"a":1}' });
        expect(res.status).toBe(409);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect(res.headers.get('retry-after')).toBe('3');
        expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
        expect(res.body.toString('utf8')).toBe('{"code":"SVC-BE-1401"}');
        expect(svc.seen).toEqual([expect.objectContaining({ method: 'POST', url: '/internal/v1/x?y=1', body: '{"a":1}' })]);
        expect(svc.seen[0].headers).toMatchObject({ 'content-type': 'application/json', 'x-tenant': 't1' });
      } finally {
        await svc.close();
      }
    });

    it('keeps its connections alive: twenty calls in turn take at most two', async () => {
      const svc = await service((_req, res) => res.end('{}'));
      const sockets = new Set<unknown>();
      svc.server.on('connection', (socket) => sockets.add(socket));
      try {
        for (let i = 0; i < 20; i++) expect((await callService('x', svc.url, { method: 'GET', path: '/a' })).status).toBe(200);
        expect(sockets.size).toBeLessThanOrEqual(2);
      } finally {
        await svc.close();
      }
    });

    it('is 504 UPSTREAM_TIMEOUT when the service does not answer in time', async () => {
      const svc = await service(() => undefined);
      try {
        const problem = await problemOf(callService('verification', svc.url, { method: 'GET', path: '/slow', timeoutMs: 100 }));
        expect({ name: problem.definition.name, status: problem.status, detail: problem.detail }).toEqual({
          name: 'UPSTREAM_TIMEOUT',
          status: 504,
          detail: 'The verification service did not answer in time.',
        });
      } finally {
        await svc.close();
      }
    });

    it('is 503 SERVICE_UNAVAILABLE with Retry-After when nothing listens', async () => {
      const svc = await service((_req, res) => res.end());
      const url = svc.url;
      await svc.close();
      const problem = await problemOf(callService('notifier', url, { method: 'GET', path: '/a' }));
      expect({ name: problem.definition.name, status: problem.status, headers: problem.headers }).toEqual({ name: 'SERVICE_UNAVAILABLE', status: 503, headers: { 'Retry-After': '5' } });
    });

    it("stops at the caller's abort", async () => {
      const svc = await service(() => undefined);
      try {
        const abort = new AbortController();
        const call = callService('x', svc.url, { method: 'GET', path: '/a', signal: abort.signal });
        setTimeout(() => abort.abort(), 20);
        expect((await problemOf(call)).definition.name).toBe('UPSTREAM_TIMEOUT');
      } finally {
        await svc.close();
      }
    });
  });

  /** A source that gives `pieces` and then either ends, stalls (never ends) or closes before its end. */
  function source(pieces: Buffer[], then: 'end' | 'stall' | 'close'): Readable {
    let next = 0;
    return new Readable({
      read() {
        if (next < pieces.length) this.push(pieces[next++]);
        else if (then === 'end') this.push(null);
        else if (then === 'close' && !this.destroyed) setImmediate(() => this.destroy());
      },
    });
  }

  /** A service that takes at most `readBytes` of a body before it answers (everything when undefined); what it saw. */
  async function uploadService(status: number, readBytes?: number): Promise<{ url: string; got: { bytes: number; complete: boolean }[]; close: () => Promise<void> }> {
    const got: { bytes: number; complete: boolean }[] = [];
    const server = createServer((req, res) => {
      const seen = { bytes: 0, complete: false };
      got.push(seen);
      const answer = () => {
        if (res.headersSent) return;
        res.writeHead(status, { 'content-type': 'application/json', ...(readBytes !== undefined ? { connection: 'close' } : {}) });
        res.end(JSON.stringify({ bytes: seen.bytes }));
      };
      req.on('data', (c: Buffer) => {
        seen.bytes += c.length;
        if (readBytes !== undefined && seen.bytes >= readBytes) {
          req.pause();
          answer();
        }
      });
      req.on('end', () => {
        seen.complete = true;
        answer();
      });
      req.on('error', () => undefined);
    });
    return { ...(await listen(server, transport)), got };
  }

  describe('callService, a streamed body (an upload)', () => {
    const pieces = Array.from({ length: 8 }, (_, i) => Buffer.alloc(64 * 1024, i));

    it('sends every byte, chunked, and returns the answer', async () => {
      const svc = await uploadService(202);
      try {
        const res = await callService('x', svc.url, { method: 'POST', path: '/up', body: source(pieces, 'end') });
        expect({ status: res.status, body: JSON.parse(res.body.toString()) }).toEqual({ status: 202, body: { bytes: 8 * 64 * 1024 } });
        expect(svc.got).toEqual([{ bytes: 8 * 64 * 1024, complete: true }]);
      } finally {
        await svc.close();
      }
    });

    it('returns an answer given before the whole body was read, sends no more, and leaves the source open', async () => {
      const svc = await uploadService(413, 64 * 1024);
      const body = source(pieces, 'stall');
      try {
        const res = await callService('x', svc.url, { method: 'POST', path: '/up', body, timeoutMs: 2000 });
        expect(res.status).toBe(413);
        expect(svc.got[0].complete).toBe(false);
        expect(body.destroyed).toBe(false);
      } finally {
        body.destroy();
        await svc.close();
      }
    });

    it("fails with the source's own failure when the source closes before its end, and the service never sees the body end", async () => {
      const svc = await uploadService(202);
      try {
        await expect(callService('x', svc.url, { method: 'POST', path: '/up', body: source(pieces.slice(0, 2), 'close') })).rejects.toThrow('closed the connection before the end of its body');
        await new Promise((r) => setTimeout(r, 50));
        expect(svc.got.every((g) => !g.complete)).toBe(true);
      } finally {
        await svc.close();
      }
    });

    it('is 504 UPSTREAM_TIMEOUT when the body stops moving for the idle time', async () => {
      const svc = await uploadService(202);
      try {
        const problem = await problemOf(callService('fulfilment-delivery', svc.url, { method: 'POST', path: '/up', body: source(pieces.slice(0, 1), 'stall'), bodyIdleTimeoutMs: 150 }));
        expect(problem.definition.name).toBe('UPSTREAM_TIMEOUT');
        expect(svc.got[0].complete).toBe(false);
      } finally {
        await svc.close();
      }
    });
  });

  describe('the request context', () => {
    const key = InternalAuthKey.from('context-spec-internal-key-0123456789');
    const alice: Principal = { id: 'key:alice', tenantId: 'acme', workspaceId: 'eu-web', roles: ['operator'] };
    const system: Principal = { id: 'system:verification-monitor', tenantId: 'acme', roles: ['operator'] };
    const served: RequestContext = { requestId: 'req-ctx-1', traceparent: '00-0af7651916cd43dd8448eb211c00319c-b7ad6b7169203331-01', identity: { key, principal: alice } };
    const TARGET = '/internal/v1/requests/r1?view=full';
    const callerOf = (headers: IncomingMessage['headers']) => verifyIdentity(key, 'GET', TARGET, headers);

    it("adds the served request's id, trace context and caller, signed for this call, when the call names none", async () => {
      const svc = await service((_req, res) => res.end('{}'));
      try {
        await runInRequestContext(served, async () => {
          // A nested step of the request: the context is still there after an await.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await callService('lifecycle-clock', svc.url, { method: 'GET', path: TARGET });
        });
        await openServiceStream('lifecycle-clock', svc.url, { method: 'GET', path: TARGET }).then(readStreamedBody);
        expect(svc.seen[0].headers).toMatchObject({ 'x-request-id': 'req-ctx-1', traceparent: served.traceparent });
        expect(callerOf(svc.seen[0].headers)).toEqual(alice);
        // Outside any request (a periodic job), nothing is added.
        for (const name of ['x-request-id', 'traceparent', IdentityHeaders.principal]) expect(svc.seen[1].headers[name]).toBeUndefined();
      } finally {
        await svc.close();
      }
    });

    it("keeps what the call names itself: its own request id, trace context and identity (a job's system principal)", async () => {
      const svc = await service((_req, res) => res.end('{}'));
      try {
        await runInRequestContext(served, () =>
          callService('x', svc.url, { method: 'GET', path: TARGET, headers: { 'X-Request-Id': 'own-id', traceparent: 'own-trace' }, identity: { key, principal: system } }),
        );
        expect(svc.seen[0].headers).toMatchObject({ 'x-request-id': 'own-id', traceparent: 'own-trace' });
        expect(callerOf(svc.seen[0].headers)).toEqual({ ...system, workspaceId: undefined });
      } finally {
        await svc.close();
      }
    });

    it('carries each of two concurrent requests its own context', async () => {
      const svc = await service((_req, res) => setTimeout(() => res.end('{}'), 5));
      try {
        const bob: Principal = { id: 'key:bob', tenantId: 'globex', roles: ['admin'] };
        await Promise.all(
          [
            { requestId: 'req-a', identity: { key, principal: alice } },
            { requestId: 'req-b', identity: { key, principal: bob } },
          ].map((context) => runInRequestContext(context, () => callService('x', svc.url, { method: 'GET', path: `${TARGET}&for=${context.requestId}` }))),
        );
        const byRequest = new Map(svc.seen.map((seen) => [seen.headers['x-request-id'], seen.headers[IdentityHeaders.principal]]));
        expect(Object.fromEntries(byRequest)).toEqual({ 'req-a': 'key:alice', 'req-b': 'key:bob' });
      } finally {
        await svc.close();
      }
    });
  });

  describe('openServiceStream', () => {
    it('hands on the status, the headers and the body as a stream, unread', async () => {
      const svc = await service((_req, res) => {
        res.writeHead(206, { 'content-type': 'application/zip', 'content-range': 'bytes 0-2/10' });
        res.end('abc');
      });
      try {
        const res = await openServiceStream('x', svc.url, { method: 'GET', path: '/file' });
        expect({ status: res.status, type: res.headers.get('content-type'), range: res.headers.get('content-range') }).toEqual({ status: 206, type: 'application/zip', range: 'bytes 0-2/10' });
        expect((await readStreamedBody(res)).toString()).toBe('abc');
      } finally {
        await svc.close();
      }
    });

    it('is 504 UPSTREAM_TIMEOUT when the headers do not come in time', async () => {
      const svc = await service(() => undefined);
      try {
        expect((await problemOf(openServiceStream('x', svc.url, { method: 'GET', path: '/file', timeoutMs: 100 }))).definition.name).toBe('UPSTREAM_TIMEOUT');
      } finally {
        await svc.close();
      }
    });
  });
});
