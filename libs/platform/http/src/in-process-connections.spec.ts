import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { ProblemError } from '@dsar/platform/errors';
import { serveInProcess } from './in-process-connections';
import { callService, openServiceStream, readStreamedBody } from './internal-client';

/** The transport-independent behaviours of the client run over both transports in internal-client.spec.ts; here, what is particular to in-memory connections. */

interface Served {
  url: string;
  server: Server;
  /** The server-side sockets of the connections it accepted. */
  sockets: unknown[];
  withdraw: () => void;
  close: () => Promise<void>;
}

async function served(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Served> {
  const server = createServer(handle);
  const sockets: unknown[] = [];
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const withdraw = serveInProcess(url, server);
  return {
    url,
    server,
    sockets,
    withdraw,
    close: () =>
      new Promise<void>((resolve) => {
        withdraw();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MiB = 1024 * 1024;
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serveInProcess', () => {
  it('reaches a registered server without a socket, and over TCP again once withdrawn', async () => {
    const svc = await served((req, res) => res.end(JSON.stringify({ tcp: req.socket instanceof Socket })));
    try {
      expect(JSON.parse((await callService('x', svc.url, { method: 'GET', path: '/a' })).body.toString())).toEqual({ tcp: false });
      svc.withdraw();
      expect(JSON.parse((await callService('x', svc.url, { method: 'GET', path: '/b' })).body.toString())).toEqual({ tcp: true });
    } finally {
      await svc.close();
    }
  });

  it("runs the handler outside the caller's async-local state, as a call over a socket would", async () => {
    const caller = new AsyncLocalStorage<string>();
    const svc = await served((_req, res) => res.end(JSON.stringify({ store: caller.getStore() ?? null })));
    try {
      const res = await caller.run('the gateway request', () => callService('x', svc.url, { method: 'GET', path: '/a' }));
      expect(JSON.parse(res.body.toString())).toEqual({ store: null });
    } finally {
      await svc.close();
    }
  });

  it('answers fifty concurrent calls, each its own', async () => {
    const svc = await served((req, res) => setTimeout(() => res.end(req.url), Math.random() * 10));
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => callService('x', svc.url, { method: 'GET', path: `/n/${i}` })));
      expect(answers.map((a) => a.body.toString())).toEqual(Array.from({ length: 50 }, (_, i) => `/n/${i}`));
    } finally {
      await svc.close();
    }
  });

  it('holds a streamed answer back while the caller does not read (backpressure), then delivers every byte', async () => {
    let written = 0;
    const total = 64 * MiB;
    const svc = await served((_req, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      const next = (): void => {
        while (written < total) {
          written += MiB;
          if (!res.write(Buffer.alloc(MiB, written / MiB))) return void res.once('drain', next);
        }
        res.end();
      };
      next();
    });
    try {
      const res = await openServiceStream('x', svc.url, { method: 'GET', path: '/file' });
      await tick(200);
      expect(written).toBeLessThanOrEqual(4 * MiB);
      let received = 0;
      for await (const part of res.body) received += (part as Buffer).length;
      expect({ received, written }).toEqual({ received: total, written: total });
    } finally {
      await svc.close();
    }
  });

  it("closes the server's response when the caller goes away in the middle of it, and the server writes no more", async () => {
    let written = 0;
    let closedEarly: Promise<void> = Promise.resolve();
    const svc = await served((_req, res) => {
      closedEarly = new Promise((resolve) => res.once('close', () => resolve()));
      res.writeHead(200, { 'content-length': String(1024 * MiB) });
      const next = (): void => {
        while (!res.destroyed && written < 1024 * MiB) {
          written += MiB;
          if (!res.write(Buffer.alloc(MiB))) return void res.once('drain', next);
        }
      };
      next();
    });
    try {
      const res = await openServiceStream('x', svc.url, { method: 'GET', path: '/file' });
      for await (const _part of res.body) break; // destroys the body, and with it the connection
      await closedEarly;
      const atClose = written;
      await tick(100);
      expect(written).toBe(atClose);
      expect(written).toBeLessThan(16 * MiB);
    } finally {
      await svc.close();
    }
  });

  it('fails the body the caller reads when the server cuts its connection in the middle of an answer', async () => {
    const svc = await served((_req, res) => {
      res.writeHead(200, { 'content-length': String(8 * MiB) });
      res.write(Buffer.alloc(MiB), () => res.destroy());
    });
    try {
      const res = await openServiceStream('x', svc.url, { method: 'GET', path: '/file' });
      await expect(readStreamedBody(res)).rejects.toThrow();
    } finally {
      await svc.close();
    }
  });

  it('delivers an answer the server gave before it read the whole upload, then cut the connection', async () => {
    const svc = await served((req, res) => {
      req.once('data', () => {
        req.pause();
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
        res.end('{"code":"too large"}');
      });
    });
    const pieces = Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024));
    const body = new Readable({ read: () => undefined });
    for (const p of pieces) body.push(p);
    try {
      const res = await callService('x', svc.url, { method: 'POST', path: '/up', body, timeoutMs: 2000 });
      expect({ status: res.status, body: res.body.toString() }).toEqual({ status: 413, body: '{"code":"too large"}' });
    } finally {
      body.destroy();
      await svc.close();
    }
  });

  it('is 503 SERVICE_UNAVAILABLE for a registered server that no longer listens, as its closed port would be', async () => {
    const svc = await served((_req, res) => res.end());
    await new Promise<void>((resolve) => svc.server.close(() => resolve()));
    try {
      const problem = await callService('x', svc.url, { method: 'GET', path: '/a' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(problem).toBeInstanceOf(ProblemError);
      expect((problem as ProblemError).definition.name).toBe('SERVICE_UNAVAILABLE');
    } finally {
      svc.withdraw();
    }
  });

  it('keeps a connection alive between calls', async () => {
    const svc = await served((_req, res) => res.end('{}'));
    try {
      for (let i = 0; i < 20; i++) expect((await callService('x', svc.url, { method: 'GET', path: '/a' })).status).toBe(200);
      expect(svc.sockets.length).toBeLessThanOrEqual(2);
    } finally {
      await svc.close();
    }
  });

  it("times a connection out when nothing moves for the server's timeout, as a socket's would", async () => {
    const svc = await served(() => undefined);
    svc.server.timeout = 100;
    try {
      const started = Date.now();
      const failure = await callService('x', svc.url, { method: 'GET', path: '/a', timeoutMs: 5000 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((failure as ProblemError).definition.name).toBe('SERVICE_UNAVAILABLE');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await svc.close();
    }
  });

  it('connects again after the server closed an idle kept-alive connection', async () => {
    const svc = await served((_req, res) => res.end('{}'));
    svc.server.keepAliveTimeout = 100;
    try {
      expect((await callService('x', svc.url, { method: 'GET', path: '/a' })).status).toBe(200);
      await tick(300);
      expect(svc.sockets.every((s) => (s as { destroyed: boolean }).destroyed)).toBe(true);
      expect((await callService('x', svc.url, { method: 'GET', path: '/a' })).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('lets the server close while a kept-alive connection is idle', async () => {
    const svc = await served((_req, res) => res.end('{}'));
    expect((await callService('x', svc.url, { method: 'GET', path: '/a' })).status).toBe(200);
    svc.withdraw();
    const closed = new Promise<string>((resolve) => svc.server.close(() => resolve('closed')));
    expect(await Promise.race([closed, tick(2000).then(() => 'still open')])).toBe('closed');
  });
});
