import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IdentityHeaders, IdentitySignatureHeaders } from '@dsar/contracts';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { INTERNAL_AUTH, InternalAuthKey } from '@dsar/platform/http';
import { Forwarder } from './forwarder';
import { GATEWAY_ROUTES, GatewayController } from './gateway.controller';
import type { GatewaySettings } from './gateway-settings';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import { buildOpenApiDocument } from './openapi';
import { routeTableProblems } from './route-table-checks';
import type { GatewayRoute } from './route-types';
import { UPSTREAMS } from './upstreams';
import { WEBHOOK_ROUTES } from './webhook-routes';

/**
 * The public webhook routes through the gateway, against a stand-in for
 * intake-gateway that echoes what it received: no token is asked for, the
 * bytes arrive exactly as sent (the provider's signature covers them), with the
 * webhook's headers and no identity.
 */

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

describe('gateway: public webhook routes', () => {
  const received: Received[] = [];
  const upstream = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(parts) });
      res.writeHead(202, { 'content-type': 'application/json', 'idempotent-replayed': 'true', 'x-internal-only': 'secret' });
      res.end(JSON.stringify({ status: 'captured' }));
    });
  });
  let app: INestApplication;
  let base: string;
  const settings: GatewaySettings = {
    auth: { apiKeys: [{ token: 'webhook-spec-token-0123456789abcdef', tenantId: 'tenant-a', roles: ['admin'] }] },
    rateLimitPerMinute: 1,
    upstreamTimeoutMs: 2000,
    bodyLimit: '1mb',
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    @Module({
      controllers: [GatewayController],
      providers: [
        Forwarder,
        { provide: UPSTREAMS, useValue: { 'intake-gateway': upstreamUrl } },
        { provide: GATEWAY_SETTINGS, useValue: settings },
        { provide: INTERNAL_AUTH, useValue: InternalAuthKey.from('webhook-spec-internal-key-0123456789') },
        { provide: GATEWAY_ROUTES, useValue: WEBHOOK_ROUTES },
      ],
    })
    class WebhookGatewayModule {}
    app = await NestFactory.create(WebhookGatewayModule, { bodyParser: false, logger: false, abortOnError: false });
    app.useGlobalFilters(new ProblemJsonFilter());
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  beforeEach(() => {
    received.length = 0;
  });

  const post = (path: string, body: Buffer | string, headers: Record<string, string>) => fetch(`${base}/api/v1${path}`, { method: 'POST', headers, body });

  it('forwards without a token, byte for byte, as application/octet-stream, with the webhook headers and no identity', async () => {
    // A BOM, non-ASCII text, JSON spacing and a trailing line break: all covered by the signature, all kept.
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"type": "email.received",  "data": {"subject": "Löschung"}}\n', 'utf8')]);
    const res = await post('/webhooks/inbound/mail', bytes, {
      'content-type': 'application/json; charset=utf-8',
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,abc',
      'svix-id': 'msg_1',
      cookie: 'a=b',
      'x-something-else': 'no',
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    expect(res.headers.get('x-internal-only')).toBeNull();
    const [call] = received;
    expect(call.url).toBe('/internal/v1/webhooks/inbound/mail');
    expect(call.body.equals(bytes)).toBe(true);
    expect(call.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': String(bytes.length),
      'webhook-id': 'msg_1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,abc',
      'svix-id': 'msg_1',
    });
    for (const name of ['cookie', 'x-something-else', 'authorization', ...Object.values(IdentityHeaders), ...Object.values(IdentitySignatureHeaders)]) expect(call.headers[name]).toBeUndefined();
  });

  it("passes Slack's signature and retry headers on the chat route, and applies no caller rate limit", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post('/webhooks/inbound/chat', '{"type":"url_verification","challenge":"x"}', {
        'content-type': 'application/json',
        'x-slack-signature': 'v0=00',
        'x-slack-request-timestamp': '1700000000',
        'x-slack-retry-num': '1',
      });
      expect(res.status).toBe(202);
    }
    expect(received.map((r) => [r.url, r.headers['x-slack-signature'], r.headers['x-slack-retry-num']])).toEqual(Array(3).fill(['/internal/v1/webhooks/inbound/chat', 'v0=00', '1']));
  });

  it('refuses a Content-Encoding and a body that is not JSON with 415, forwarding nothing', async () => {
    const encoded = await post('/webhooks/inbound/mail', Buffer.from([0x1f, 0x8b]), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect({ status: encoded.status, code: ((await encoded.json()) as { code: string }).code }).toEqual({ status: 415, code: 'SVC-BE-1109' });
    const form = await post('/webhooks/inbound/chat', 'payload=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect({ status: form.status, code: ((await form.json()) as { code: string }).code }).toEqual({ status: 415, code: 'SVC-BE-1104' });
    expect(received).toEqual([]);
  });
});

describe('routeTableProblems of webhook routes', () => {
  const webhook = WEBHOOK_ROUTES[0];
  it('finds nothing wrong with the webhook routes', () => {
    expect(routeTableProblems(WEBHOOK_ROUTES)).toEqual([]);
  });

  it('keeps public routes and webhooks the same routes, and webhooks POSTs with headers of their own', () => {
    const { webhook: _dropped, ...notWebhook } = webhook;
    const routes: GatewayRoute[] = [
      { ...webhook, permission: 'requests:create' },
      { ...notWebhook, operationId: 'x', permission: 'public' } as GatewayRoute,
      { ...webhook, method: 'PUT' },
      {
        ...webhook,
        webhook: {
          ...webhook.webhook!,
          headers: { authorization: { required: false, description: 'no' }, 'x-dsar-tenant-id': { required: false, description: 'no' }, 'Webhook-Id': { required: false, description: 'no' } },
        },
      },
    ];
    expect(routeTableProblems(routes)).toEqual([
      "POST /webhooks/inbound/mail: a route is public exactly when it is a provider's webhook or a route of the download page",
      "POST /webhooks/inbound/mail: a route is public exactly when it is a provider's webhook or a route of the download page",
      'PUT /webhooks/inbound/mail: a webhook is a POST',
      "POST /webhooks/inbound/mail: authorization is not a lower-case header of the webhook's own",
      "POST /webhooks/inbound/mail: x-dsar-tenant-id is not a lower-case header of the webhook's own",
      "POST /webhooks/inbound/mail: Webhook-Id is not a lower-case header of the webhook's own",
    ]);
  });
});

describe('the OpenAPI document of the webhook routes', () => {
  const doc = buildOpenApiDocument(WEBHOOK_ROUTES) as { paths: Record<string, Record<string, any>> };

  it("publishes them without a security requirement, with their body, headers and signature errors, and no caller errors but the 429 of the address's budget", () => {
    for (const path of ['/webhooks/inbound/mail', '/webhooks/inbound/chat']) {
      const op = doc.paths[path].post;
      expect(op.security).toEqual([]);
      expect(op.description).toContain('Public: no bearer token');
      expect(Object.keys(op.requestBody.content)).toEqual(['application/json']);
      expect(op.parameters.map((p: { name: string }) => p.name)).not.toContain('Idempotency-Key');
      expect(op.responses['401'].description).toContain('SVC-BE-1601');
      expect(op.responses['401'].description).toContain('SVC-BE-1602');
      expect(op.responses['401'].description).not.toContain('SVC-BE-1301');
      expect(op.responses['403']).toBeUndefined();
      // No caller's rate limit, but the webhook budget of the client's address.
      expect(op.responses['429'].description).toContain('SVC-BE-1004');
      expect(op.responses['415']).toBeDefined();
      expect(op.responses['422'].description).toContain('SVC-BE-1603');
    }
    expect(doc.paths['/webhooks/inbound/mail'].post.parameters.map((p: { name: string }) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'svix-id',
      'svix-timestamp',
      'svix-signature',
    ]);
    expect(Object.keys(doc.paths['/webhooks/inbound/mail'].post.responses)).toContain('202');
    expect(Object.keys(doc.paths['/webhooks/inbound/chat'].post.responses)).toContain('200');
  });
});
