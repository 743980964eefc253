import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProblemError } from '@dsar/platform/errors';
import { callService } from './internal-client';

/** A service on a loopback port answering with `handle`; the requests it saw, body included. */
async function service(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<{ url: string; seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[]; close: () => Promise<void>; server: Server }> {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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
      expect({ name: problem.definition.name, status: problem.status, detail: problem.detail }).toEqual({ name: 'UPSTREAM_TIMEOUT', status: 504, detail: 'The verification service did not answer in time.' });
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
