import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { z } from 'zod';
import { IdentityHeaders } from '@dsar/contracts';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { contentDisposition, contentRange, INTERNAL_AUTH, InternalAuthKey, parseRange } from '@dsar/platform/http';
import { gcFunction } from '@dsar/platform/test-measure';
import { Forwarder } from './forwarder';
import { buildOpenApiDocument } from './openapi';
import { GATEWAY_ROUTES, GatewayController } from './gateway.controller';
import type { GatewaySettings } from './gateway-settings';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import { IDEMPOTENCY_ERRORS } from './route-errors';
import { routeTableProblems } from './route-table-checks';
import type { GatewayRoute } from './route-types';
import { ROUTES } from './routes';
import { UPSTREAMS } from './upstreams';

/**
 * Uploads and downloads through the gateway, against a tiny upstream
 * (node:http) standing in for the owning service: the body streams both ways
 * without being held, with backpressure, early answers, aborts and idle
 * deadlines. The routes exist only here.
 */

const TOKEN = 'streaming-spec-token-0123456789abcdef';
const REQUEST_ID = '6a0f8a52-93a5-4f0e-8d4c-7d5f0e1c2b3a';
const MiB = 1024 * 1024;

const UPLOAD_ROUTE: GatewayRoute = {
  method: 'PUT',
  path: '/requests/:id/files',
  service: 'files',
  permission: 'requests:act',
  operationId: 'uploadSpecFile',
  summary: 'Upload a file',
  tag: 'Requests',
  upload: {
    description: 'The file.',
    headers: {
      'X-File-Kind': { required: true, description: 'What the file is.', schema: z.enum(['passport', 'letter']) },
      'X-File-Note': { required: false, description: 'A note about it.' },
    },
  },
  response: { status: 201, schema: z.object({ bytes: z.number() }), description: 'Stored.' },
  errors: [...IDEMPOTENCY_ERRORS],
};

const DOWNLOAD_ROUTE: GatewayRoute = {
  method: 'GET',
  path: '/requests/:id/files/:fileId',
  service: 'files',
  permission: 'requests:read',
  operationId: 'downloadSpecFile',
  summary: 'Download a file',
  tag: 'Requests',
  download: { status: 200, description: 'The file.', headers: { 'x-file-sha256': "The file's SHA-256." } },
  errors: ['RESOURCE_NOT_FOUND'],
};

/** A JSON answer by default, the file with `Accept: application/octet-stream` (ranged), and a header of the route's passed on. */
const NEGOTIATED_ROUTE: GatewayRoute = {
  method: 'GET',
  path: '/requests/:id/papers/:paperId',
  service: 'files',
  permission: 'requests:read',
  operationId: 'getSpecPaper',
  summary: 'A paper, as metadata or bytes',
  tag: 'Requests',
  passHeaders: { 'x-paper-token': { required: true, description: 'The token that opens the paper.' } },
  response: { status: 200, schema: z.object({ headers: z.record(z.string(), z.string()) }), description: "The paper's metadata." },
  file: { status: 200, mediaTypes: ['application/octet-stream'], description: "The paper's bytes.", headers: { 'x-file-sha256': "The file's SHA-256." }, ranges: true },
  errors: ['RESOURCE_NOT_FOUND'],
};

/** What the upstream saw of one call. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
  sha256?: string;
  complete: boolean;
  aborted: boolean;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void;

/** The upstream's default upload handler: reads the whole body, hashes it, answers 201 with what it saw. */
const storeUpload: Handler = (req, res, seen) => {
  const hash = createHash('sha256');
  req.on('data', (chunk: Buffer) => {
    seen.bytes += chunk.length;
    hash.update(chunk);
  });
  req.on('end', () => {
    seen.sha256 = hash.digest('hex');
    res.writeHead(201, { 'content-type': 'application/json', 'x-internal-only': 'secret' });
    res.end(JSON.stringify({ bytes: seen.bytes, sha256: seen.sha256, headers: req.headers }));
  });
};

const FILE = randomBytes(MiB);
const FILE_ETAG = `"${createHash('sha256').update(FILE).digest('hex')}"`;

/** The upstream's download handler: a 1 MiB file with ranges, ETag revalidation and a 404 problem for file `missing`. */
const serveFile: Handler = (req, res) => {
  if (req.url?.endsWith('/missing')) {
    res.writeHead(404, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ status: 404, code: 'SVC-BE-1003', name: 'RESOURCE_NOT_FOUND', instance: req.url, detail: `No file at ${req.url}` }));
    return;
  }
  const common = {
    etag: FILE_ETAG,
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'content-disposition': contentDisposition('Auskunft – März.bin'),
    'x-file-sha256': FILE_ETAG.slice(1, -1),
    'x-internal-only': 'secret',
  };
  if (req.headers['if-none-match'] === FILE_ETAG) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const range = req.headers['if-range'] === undefined || req.headers['if-range'] === FILE_ETAG ? parseRange(req.headers.range, FILE.length) : undefined;
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...common, 'content-range': contentRange(range, FILE.length) });
    res.end();
    return;
  }
  const part = range ? FILE.subarray(range.start, range.end + 1) : FILE;
  res.writeHead(range ? 206 : 200, {
    ...common,
    'content-type': 'application/octet-stream',
    'content-length': String(part.length),
    ...(range ? { 'content-range': contentRange(range, FILE.length) } : {}),
  });
  res.end(part);
};

/** The negotiated route's upstream: the file for `Accept: application/octet-stream`, else JSON naming the headers it got. */
const servePaper: Handler = (req, res, seen) => {
  if (req.headers.accept?.includes('application/octet-stream')) return serveFile(req, res, seen);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ headers: req.headers }));
};

class Upstream {
  readonly calls: Seen[] = [];
  handler: Handler = storeUpload;
  private readonly server = http.createServer((req, res) => {
    const seen: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, bytes: 0, complete: false, aborted: false };
    this.calls.push(seen);
    req.on('end', () => (seen.complete = true));
    // An answered request is no longer the connection's: the connection closing is what cuts its body off.
    const cutOff = () => (seen.aborted ||= !req.complete);
    req.on('close', cutOff);
    req.socket.once('close', cutOff);
    req.on('error', () => undefined);
    (req.method === 'GET' ? (req.url?.includes('/papers/') ? servePaper : serveFile) : this.handler)(req, res, seen);
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Waits until a condition holds, or fails after `ms`. */
async function until(what: string, check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface ClientAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * An upload from a client that writes `total` bytes in `chunk`-sized writes as
 * fast as the connection takes them (waiting for drain: the client feels
 * backpressure), stopping when the answer arrives. `onProgress` sees the bytes
 * written so far.
 */
function upload(
  base: string,
  options: { path?: string; headers?: Record<string, string>; total: number; chunk?: Buffer; gapMs?: number; abortAfter?: number; onProgress?: (sent: number) => void; chunked?: boolean },
): Promise<ClientAnswer | 'aborted'> & { sent: () => number } {
  const chunk = options.chunk ?? Buffer.alloc(64 * 1024, 7);
  let sent = 0;
  const promise = new Promise<ClientAnswer | 'aborted'>((resolve, reject) => {
    const req = http.request(`${base}${options.path ?? '/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/files'}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'x-file-kind': 'passport',
        ...(options.chunked ? {} : { 'content-length': String(options.total) }),
        ...options.headers,
      },
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) });
        req.destroy();
      });
    });
    req.on('error', (e) => (options.abortAfter !== undefined ? resolve('aborted') : reject(e)));
    const write = async () => {
      while (sent < options.total && !answered && !req.destroyed) {
        if (options.abortAfter !== undefined && sent >= options.abortAfter) {
          req.destroy();
          resolve('aborted');
          return;
        }
        const piece = chunk.subarray(0, Math.min(chunk.length, options.total - sent));
        const more = req.write(piece);
        sent += piece.length;
        options.onProgress?.(sent);
        // Until the next write is due, or the answer is in (or the connection gone).
        await new Promise<void>((r) => {
          if (!options.gapMs && more) return r();
          const done = () => {
            clearTimeout(timer);
            for (const event of ['drain', 'response', 'close']) req.off(event, done);
            r();
          };
          const timer = options.gapMs ? setTimeout(done, options.gapMs) : undefined;
          if (!options.gapMs) req.once('drain', done);
          req.once('response', done);
          req.once('close', done);
        });
      }
      if (!answered && !req.destroyed) req.end();
    };
    void write();
  });
  return Object.assign(promise, { sent: () => sent });
}

const json = (a: ClientAnswer | 'aborted') => {
  if (a === 'aborted') throw new Error('the upload was aborted');
  return JSON.parse(a.body.toString('utf8')) as Record<string, unknown> & { headers: Record<string, string> };
};

describe('gateway streaming: uploads and downloads', () => {
  const upstream = new Upstream();
  let app: INestApplication;
  let base: string;
  const settings: GatewaySettings = {
    auth: { apiKeys: [{ token: TOKEN, tenantId: 'tenant-a', roles: ['admin'] }] },
    rateLimitPerMinute: 0,
    upstreamTimeoutMs: 300,
    // Long enough for the stalled-service test to measure memory (two full GCs) on a loaded machine before it
    // releases the service: a stall longer than this is, by design, a 504.
    uploadIdleTimeoutMs: 2000,
    bodyLimit: '1mb',
  };

  beforeAll(async () => {
    const upstreamUrl = await upstream.start();
    @Module({
      controllers: [GatewayController],
      providers: [
        Forwarder,
        { provide: UPSTREAMS, useValue: { files: upstreamUrl } },
        { provide: GATEWAY_SETTINGS, useValue: settings },
        { provide: INTERNAL_AUTH, useValue: InternalAuthKey.from('streaming-spec-internal-key-0123456789') },
        { provide: GATEWAY_ROUTES, useValue: [UPLOAD_ROUTE, DOWNLOAD_ROUTE, NEGOTIATED_ROUTE] },
      ],
    })
    class StreamingGatewayModule {}
    app = await NestFactory.create(StreamingGatewayModule, { bodyParser: false, logger: false, abortOnError: false });
    app.useGlobalFilters(new ProblemJsonFilter());
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    (app.getHttpServer() as http.Server).closeAllConnections();
    await app.close();
    await upstream.stop();
  });

  beforeEach(() => {
    upstream.handler = storeUpload;
    upstream.calls.length = 0;
  });

  describe('uploads', () => {
    it('streams 50 MiB through without holding it: the client waits for a stalled service, and memory stays flat', async () => {
      const gc = gcFunction();
      const total = 50 * MiB;
      const chunk = randomBytes(64 * 1024);
      let release: () => void = () => undefined;
      // The service reads 2 MiB, then stops reading until released: everything upstream of it must wait, not pile up.
      upstream.handler = (req, res, seen) => {
        storeUpload(req, res, seen);
        const onData = () => {
          if (seen.bytes < 2 * MiB) return;
          req.off('data', onData);
          req.pause();
          release = () => req.resume();
        };
        req.on('data', onData);
      };
      // Twice: the first collection after start-up leaves some for the next.
      gc();
      gc();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
      try {
        let lastProgress = Date.now();
        const answer = upload(base, { total, chunk, onProgress: () => (lastProgress = Date.now()) });
        await until('the service to stall', () => (upstream.calls[0]?.bytes ?? 0) >= 2 * MiB);
        // The client keeps writing until every buffer on the way (sockets, streams) is full, then waits.
        await until('the client to be held back', () => Date.now() - lastProgress > 250, 5000);
        const held = answer.sent();
        gc();
        gc();
        const stalled = process.memoryUsage();
        expect(held).toBeLessThan(total);
        // Bytes live in array buffers; the objects around them on the heap.
        expect(stalled.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * MiB);
        expect(stalled.heapUsed - before.heapUsed).toBeLessThan(16 * MiB);
        release();
        const body = json(await answer);
        expect(body.bytes).toBe(total);
        const expected = createHash('sha256');
        for (let at = 0; at < total; at += chunk.length) expected.update(chunk.subarray(0, Math.min(chunk.length, total - at)));
        expect(body.sha256).toBe(expected.digest('hex'));
      } finally {
        clearInterval(sampler);
      }
      // Garbage of the chunks that went through may wait for a collection; the body as a whole was never there.
      expect(peakRss - before.rss).toBeLessThan(45 * MiB);
    }, 20_000);

    it('passes the body as application/octet-stream with its Content-Length and the declared headers, and no other client header', async () => {
      const answer = await upload(base, {
        total: 1000,
        headers: {
          'content-type': 'image/png',
          'x-file-note': 'front side',
          'x-undeclared': 'no',
          cookie: 'session=1',
          [IdentityHeaders.tenant]: 'tenant-forged',
          'x-request-id': REQUEST_ID,
        },
      });
      if (answer === 'aborted') throw new Error('aborted');
      expect(answer.status).toBe(201);
      expect(answer.headers['x-internal-only']).toBeUndefined();
      const seen = json(answer).headers;
      // The bytes go as a file whatever the client labelled them (the file's type is a declared header).
      expect(seen).toMatchObject({ 'content-type': 'application/octet-stream', 'content-length': '1000', 'x-file-kind': 'passport', 'x-file-note': 'front side', 'x-request-id': REQUEST_ID });
      expect(seen[IdentityHeaders.tenant]).toBe('tenant-a');
      for (const name of ['x-undeclared', 'cookie', 'authorization', 'content-encoding', 'transfer-encoding']) expect(seen[name]).toBeUndefined();
      expect(upstream.calls[0].url).toBe('/internal/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/files');
    });

    it('sends application/octet-stream when the client names no type, and a chunked body as chunked', async () => {
      const seen = json(await upload(base, { total: 200_000, chunked: true }));
      expect(seen.bytes).toBe(200_000);
      expect(seen.headers['content-type']).toBe('application/octet-stream');
      expect(seen.headers['content-length']).toBeUndefined();
    });

    it('refuses a missing or malformed required header with 400 before anything is forwarded', async () => {
      const missing = await upload(base, { total: 10, headers: { 'x-file-kind': '' } });
      if (missing === 'aborted') throw new Error('aborted');
      expect(missing.status).toBe(400);
      expect(json(missing)).toMatchObject({ code: 'SVC-BE-1102', errors: [{ field: 'X-File-Kind', message: 'is a required header' }] });
      const invalid = await upload(base, { total: 10, headers: { 'x-file-kind': 'selfie' } });
      if (invalid === 'aborted') throw new Error('aborted');
      expect(invalid.status).toBe(400);
      expect(json(invalid).errors).toEqual([expect.objectContaining({ field: 'X-File-Kind' })]);
      expect(upstream.calls).toHaveLength(0);
    });

    it('answers 401 to an unauthenticated upload while it is still being sent, and goes on serving', async () => {
      const got = await upload(base, { total: 20 * MiB, headers: { authorization: 'Bearer nope' } });
      if (got === 'aborted') throw new Error('aborted');
      expect(got.status).toBe(401);
      expect(upstream.calls).toHaveLength(0);
      expect(json(await upload(base, { total: 10 })).bytes).toBe(10);
    });

    it('refuses a Content-Encoding with 415 (SVC-BE-1109)', async () => {
      const answer = await upload(base, { total: 10, headers: { 'content-encoding': 'gzip' } });
      if (answer === 'aborted') throw new Error('aborted');
      expect(answer.status).toBe(415);
      expect(answer.headers['accept-encoding']).toBe('identity');
      expect(json(answer).code).toBe('SVC-BE-1109');
      expect(upstream.calls).toHaveLength(0);
    });

    it('refuses a multipart or JSON body with 415 (SVC-BE-1104) before it reaches the service', async () => {
      for (const type of ['multipart/form-data; boundary=abc', 'application/json']) {
        const answer = await upload(base, { total: 10, headers: { 'content-type': type } });
        if (answer === 'aborted') throw new Error('aborted');
        expect({ status: answer.status, code: json(answer).code }).toEqual({ status: 415, code: 'SVC-BE-1104' });
      }
      expect(upstream.calls).toHaveLength(0);
    });

    it('fingerprints an idempotent upload over its method, path, type, length and declared headers', async () => {
      const key = { 'idempotency-key': 'upload-1' };
      const a = json(await upload(base, { total: 100, headers: key })).headers['x-dsar-request-fingerprint'];
      const b = json(await upload(base, { total: 100, headers: key, chunk: Buffer.alloc(100, 1) })).headers['x-dsar-request-fingerprint'];
      const c = json(await upload(base, { total: 101, headers: key })).headers['x-dsar-request-fingerprint'];
      const d = json(await upload(base, { total: 100, headers: { ...key, 'x-file-note': 'other' } })).headers['x-dsar-request-fingerprint'];
      expect(a).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(b).toBe(a);
      expect(new Set([a, c, d]).size).toBe(3);
    });

    it("returns the service's early 413 to a client still sending, and stops the upload", async () => {
      // A size check as a service makes it: count, and answer as soon as the limit is passed. (Node then reads and
      // drops the rest of the body on the connection; the gateway cuts it short. A service that closes the
      // connection with the body unread resets it, and its answer may be lost on the way: 503.)
      upstream.handler = (req, res, seen) => {
        req.on('data', (chunk: Buffer) => {
          seen.bytes += chunk.length;
          if (seen.bytes <= MiB || res.headersSent) return;
          res.writeHead(413, { 'content-type': 'application/problem+json' });
          res.end(JSON.stringify({ status: 413, code: 'SVC-BE-1103', name: 'PAYLOAD_TOO_LARGE', instance: req.url }));
        });
      };
      const answer = upload(base, { total: 50 * MiB });
      const got = await answer;
      if (got === 'aborted') throw new Error('aborted');
      expect(got.status).toBe(413);
      expect(json(got)).toMatchObject({ code: 'SVC-BE-1103', instance: '/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/files' });
      expect(answer.sent()).toBeLessThan(50 * MiB);
      await until('the upload to the service to be cut off', () => upstream.calls[0]?.aborted === true);
      expect(upstream.calls[0].bytes).toBeLessThan(50 * MiB);
      // The gateway goes on serving.
      upstream.handler = storeUpload;
      expect(json(await upload(base, { total: 10 })).bytes).toBe(10);
    });

    it('returns an answer the service gives before reading anything', async () => {
      upstream.handler = (req, res) => {
        res.writeHead(403, { 'content-type': 'application/problem+json' });
        res.end(JSON.stringify({ status: 403, code: 'SVC-BE-1302', name: 'PERMISSION_DENIED', instance: req.url }));
      };
      const got = await upload(base, { total: 20 * MiB });
      if (got === 'aborted') throw new Error('aborted');
      expect(got.status).toBe(403);
      expect(json(got).instance).toBe('/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/files');
    });

    it('aborts the call to the service when the client aborts mid-upload', async () => {
      const answer = await upload(base, { total: 50 * MiB, abortAfter: 4 * MiB });
      expect(answer).toBe('aborted');
      await until('the service to see the upload cut off', () => upstream.calls[0]?.aborted === true);
      expect(upstream.calls[0].complete).toBe(false);
      expect(json(await upload(base, { total: 10 })).bytes).toBe(10);
    });

    it('has no total deadline: an upload that keeps moving outlasts the upstream timeout', async () => {
      const started = Date.now();
      const answer = json(await upload(base, { total: 12 * 1024, chunk: Buffer.alloc(1024, 3), gapMs: 60 }));
      expect(answer.bytes).toBe(12 * 1024);
      expect(Date.now() - started).toBeGreaterThan(settings.upstreamTimeoutMs * 2);
    });

    it('gives up on an upload that stops moving (504) and drops the call to the service', async () => {
      const answer = await upload(base, { total: 2048, chunk: Buffer.alloc(1024, 3), gapMs: 2600 });
      if (answer === 'aborted') throw new Error('aborted');
      expect(answer.status).toBe(504);
      expect(json(answer).code).toBe('SVC-BE-1005');
      await until('the service to see the upload cut off', () => upstream.calls[0]?.aborted === true);
    });
  });

  describe('downloads', () => {
    const fileUrl = (file = '7') => `${base}/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/files/${file}`;
    const auth = { authorization: `Bearer ${TOKEN}` };

    it('streams the whole file with its headers, and no internal one', async () => {
      const res = await fetch(fileUrl(), { headers: auth });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(FILE)).toBe(true);
      expect(Object.fromEntries(res.headers)).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': String(FILE.length),
        etag: FILE_ETAG,
        'accept-ranges': 'bytes',
        'cache-control': 'no-store',
        'content-disposition': 'attachment; filename="Auskunft _ M_rz.bin"; filename*=UTF-8\'\'Auskunft%20%E2%80%93%20M%C3%A4rz.bin',
        'x-file-sha256': FILE_ETAG.slice(1, -1),
        'x-content-type-options': 'nosniff',
      });
      expect(res.headers.get('x-internal-only')).toBeNull();
      // The bytes as stored: the service is asked for no content coding.
      expect(upstream.calls[0].headers['accept-encoding']).toBe('identity');
    });

    it('passes Range and If-Range on, and returns the 206 with Content-Range', async () => {
      const res = await fetch(fileUrl(), { headers: { ...auth, range: 'bytes=100-199', 'if-range': FILE_ETAG } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes 100-199/${FILE.length}`);
      expect(res.headers.get('content-length')).toBe('100');
      expect(Buffer.from(await res.arrayBuffer()).equals(FILE.subarray(100, 200))).toBe(true);
      expect(upstream.calls[0].headers).toMatchObject({ range: 'bytes=100-199', 'if-range': FILE_ETAG });
    });

    it('passes If-None-Match on and returns the 304; an unsatisfiable range is a 416 with the size', async () => {
      const notModified = await fetch(fileUrl(), { headers: { ...auth, 'if-none-match': FILE_ETAG } });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('etag')).toBe(FILE_ETAG);
      const unsatisfiable = await fetch(fileUrl(), { headers: { ...auth, range: `bytes=${FILE.length}-` } });
      expect(unsatisfiable.status).toBe(416);
      expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${FILE.length}`);
      await unsatisfiable.arrayBuffer();
    });

    it("answers HEAD with the GET's headers and no body", async () => {
      const res = await fetch(fileUrl(), { method: 'HEAD', headers: { ...auth, range: 'bytes=0-9' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-length')).toBe('10');
      expect(res.headers.get('content-range')).toBe(`bytes 0-9/${FILE.length}`);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
      expect(upstream.calls[0].method).toBe('GET');
    });

    it('a negotiated route: JSON by default, with its passed header and no other client header', async () => {
      const res = await fetch(`${base}/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/papers/3`, {
        headers: { ...auth, 'x-paper-token': 'open-sesame', 'x-other': 'kept-out', range: 'bytes=0-9' },
      });
      expect(res.status).toBe(200);
      const seen = ((await res.json()) as { headers: Record<string, string> }).headers;
      expect(seen['x-paper-token']).toBe('open-sesame');
      expect(seen['x-other']).toBeUndefined();
      // JSON is not ranged: the client's Range stays at the gateway.
      expect(seen.range).toBeUndefined();
      expect(seen.accept).toBe('application/json');
    });

    it('a negotiated route with ranges: the file as a download, its Range, validators and passed header on', async () => {
      const url = `${base}/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/papers/3`;
      const part = await fetch(url, { headers: { ...auth, accept: 'application/octet-stream', 'x-paper-token': 'open-sesame', range: 'bytes=100-199', 'if-range': FILE_ETAG } });
      expect(part.status).toBe(206);
      expect(Object.fromEntries(part.headers)).toMatchObject({
        'content-range': `bytes 100-199/${FILE.length}`,
        'content-length': '100',
        etag: FILE_ETAG,
        'x-file-sha256': FILE_ETAG.slice(1, -1),
        'x-content-type-options': 'nosniff',
      });
      expect(Buffer.from(await part.arrayBuffer()).equals(FILE.subarray(100, 200))).toBe(true);
      // fetch itself adds another `identity` to a ranged call (Fetch standard, HTTP-network fetch): the service sees "identity, identity".
      expect(upstream.calls[0].headers).toMatchObject({
        'x-paper-token': 'open-sesame',
        range: 'bytes=100-199',
        'if-range': FILE_ETAG,
        'accept-encoding': expect.stringMatching(/^identity(, identity)?$/),
      });
      const notModified = await fetch(url, { headers: { ...auth, accept: 'application/octet-stream', 'if-none-match': FILE_ETAG } });
      expect(notModified.status).toBe(304);
      const unsatisfiable = await fetch(url, { headers: { ...auth, accept: 'application/octet-stream', range: `bytes=${FILE.length}-` } });
      expect(unsatisfiable.status).toBe(416);
      expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${FILE.length}`);
      await unsatisfiable.arrayBuffer();
    });

    it('returns a problem as for any route, with the public path', async () => {
      const res = await fetch(fileUrl('missing'), { headers: auth });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await res.json()) as Record<string, string>;
      expect(problem.instance).toBe('/api/v1/requests/2f0c1d8e-5c1b-4f7e-9a57-0d3f1c2b4a6e/files/missing');
      expect(problem.detail).not.toContain('/internal/');
    });
  });
});

describe('routeTableProblems', () => {
  it('finds nothing wrong with the real route table or the routes above', () => {
    expect(routeTableProblems(ROUTES)).toEqual([]);
    expect(routeTableProblems([UPLOAD_ROUTE, DOWNLOAD_ROUTE, NEGOTIATED_ROUTE])).toEqual([]);
  });

  it("refuses passed headers that are not lower-case X- headers of the route's own", () => {
    const bad: GatewayRoute = {
      ...NEGOTIATED_ROUTE,
      passHeaders: { authorization: { required: false, description: 'x' }, 'X-Paper-Token': { required: false, description: 'x' }, 'x-dsar-tenant-id': { required: false, description: 'x' } },
    };
    expect(routeTableProblems([bad])).toEqual([
      'GET /requests/:id/papers/:paperId: authorization is not a lower-case X- header a route may pass on',
      'GET /requests/:id/papers/:paperId: X-Paper-Token is not a lower-case X- header a route may pass on',
      'GET /requests/:id/papers/:paperId: x-dsar-tenant-id is not a lower-case X- header a route may pass on',
    ]);
  });

  it("refuses upload headers that are not a route's own X- headers, and streamed routes of the wrong method", () => {
    const badUpload: GatewayRoute = {
      ...UPLOAD_ROUTE,
      method: 'GET',
      upload: { description: 'x', headers: { 'Content-Language': { required: false, description: 'x' }, 'X-DSAR-Tenant-Id': { required: false, description: 'x' } } },
    };
    const badDownload: GatewayRoute = { ...DOWNLOAD_ROUTE, method: 'POST', file: { status: 200, mediaTypes: ['text/csv'], description: 'x', headers: {} }, errors: IDEMPOTENCY_ERRORS };
    expect(routeTableProblems([badUpload, badDownload])).toEqual([
      'GET /requests/:id/files: an upload is a POST, PUT or PATCH',
      'GET /requests/:id/files: Content-Language is not an X- header a route may take',
      'GET /requests/:id/files: X-DSAR-Tenant-Id is not an X- header a route may take',
      'POST /requests/:id/files/:fileId: a download is a GET',
      'POST /requests/:id/files/:fileId: a download route is always a file; it has no `file`',
    ]);
  });
});

describe('the OpenAPI document of streamed routes', () => {
  const doc = buildOpenApiDocument([UPLOAD_ROUTE, DOWNLOAD_ROUTE]);
  type Operation = { parameters: Record<string, unknown>[]; requestBody?: Record<string, unknown>; responses: Record<string, Record<string, unknown>> };
  const uploadOp = doc.paths['/requests/{id}/files'].put as Operation;
  const downloadOp = doc.paths['/requests/{id}/files/{fileId}'].get as Operation;
  const binary = { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } };
  // A downloaded file keeps the media type it was stored with: any.
  const anyFile = { '*/*': { schema: { type: 'string', format: 'binary' } } };

  it("documents an upload's body as binary, its headers as parameters, and its 413 and 415", () => {
    expect(uploadOp.requestBody).toMatchObject({ required: true, content: binary });
    expect(uploadOp.parameters).toEqual(
      expect.arrayContaining([
        { name: 'X-File-Kind', in: 'header', required: true, description: 'What the file is.', schema: { type: 'string', enum: ['passport', 'letter'] } },
        { name: 'X-File-Note', in: 'header', required: false, description: 'A note about it.', schema: { type: 'string' } },
        expect.objectContaining({ name: 'Idempotency-Key', description: expect.stringContaining('bytes (their SHA-256, computed as they stream)') }),
      ]),
    );
    expect(uploadOp.responses['201'].content).toEqual({ 'application/json': expect.any(Object) });
    expect(uploadOp.responses['413'].description).toContain('SVC-BE-1103');
    expect(uploadOp.responses['415'].description).toContain('SVC-BE-1104');
    expect(uploadOp.responses['415'].description).toContain('SVC-BE-1109');
    expect(uploadOp.responses['400'].description).toContain('SVC-BE-1102');
  });

  it('documents a negotiated ranged route: its passed header, one 200 with JSON and bytes, 206, 304 and 416', () => {
    const op = buildOpenApiDocument([NEGOTIATED_ROUTE]).paths['/requests/{id}/papers/{paperId}'].get as Operation;
    expect(op.parameters).toEqual(
      expect.arrayContaining([
        { name: 'x-paper-token', in: 'header', required: true, description: 'The token that opens the paper.', schema: { type: 'string' } },
        expect.objectContaining({ name: 'Range', in: 'header' }),
        expect.objectContaining({ name: 'If-None-Match', in: 'header' }),
      ]),
    );
    expect(op.responses['200'].content).toEqual({ 'application/json': expect.any(Object), ...binary });
    expect(op.responses['200'].description).toContain('metadata');
    expect(op.responses['200'].description).toContain('bytes');
    expect(Object.keys(op.responses['200'].headers as object)).toEqual(expect.arrayContaining(['Content-Length', 'ETag', 'x-file-sha256']));
    expect(op.responses['206']).toMatchObject({ content: anyFile, headers: { 'Content-Range': expect.any(Object) } });
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['304', '416']));
  });

  it("documents a download's 200 and 206 as binary with their headers, and its Range parameter", () => {
    expect(downloadOp.requestBody).toBeUndefined();
    expect(downloadOp.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Range', in: 'header', required: false })]));
    expect(downloadOp.responses['200']).toMatchObject({ content: anyFile, headers: { 'x-file-sha256': { description: "The file's SHA-256.", schema: { type: 'string' } } } });
    expect(Object.keys(downloadOp.responses['200'].headers as object)).toEqual(expect.arrayContaining(['Content-Length', 'Content-Disposition', 'ETag', 'Accept-Ranges', 'Cache-Control']));
    expect(downloadOp.responses['206']).toMatchObject({ content: anyFile, headers: { 'Content-Range': expect.any(Object) } });
    expect(downloadOp.responses['416'].headers).toHaveProperty('Content-Range');
    expect(downloadOp.responses['404'].content).toEqual({ 'application/problem+json': expect.any(Object) });
  });
});
