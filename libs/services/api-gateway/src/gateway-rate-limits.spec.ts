import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request } from 'express';
import { z } from 'zod';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { INTERNAL_AUTH, InternalAuthKey } from '@dsar/platform/http';
import { Forwarder } from './forwarder';
import { GATEWAY_ROUTES, GatewayController } from './gateway.controller';
import { addressRateLimitsFrom, gatewayFields, type GatewaySettings } from './gateway-settings';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import { apiGatewayService } from './index';
import { clientKeyOf } from './rate-limiter';
import type { GatewayRoute } from './route-types';
import { UPSTREAMS } from './upstreams';
import { WEBHOOK_ROUTES } from './webhook-routes';
import { PORTAL_ROUTES } from './portal-routes';

/**
 * The budgets per client address: requests refused before a caller is
 * authenticated, and webhook deliveries, each counted per address (here told
 * apart by X-Forwarded-For, the gateway trusting its loopback proxy).
 */

const TOKEN = 'rate-limit-spec-token-0123456789abcdef';
const UNAUTHENTICATED_BUDGET = 3;
const WEBHOOK_BUDGET = 2;
const PORTAL_BUDGET = 2;

const urlOf = (app: INestApplication) => `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;

const READ_ROUTE: GatewayRoute = {
  method: 'GET',
  path: '/things',
  service: 'things',
  permission: 'requests:read',
  operationId: 'listSpecThings',
  summary: 'List things',
  tag: 'Requests',
  response: { status: 200, schema: z.object({ ok: z.boolean() }), description: 'The things.' },
  errors: [],
};

/** A gateway over READ_ROUTE and the webhook routes against a stand-in service; `trusted` proxies as TRUSTED_PROXIES names them. */
async function startGateway(upstreamUrl: string, trusted: string[]): Promise<INestApplication> {
  @Module({
    controllers: [GatewayController],
    providers: [
      Forwarder,
      { provide: UPSTREAMS, useValue: { things: upstreamUrl, 'intake-gateway': upstreamUrl, 'fulfilment-delivery': upstreamUrl } },
      { provide: GATEWAY_SETTINGS, useValue: SETTINGS },
      { provide: INTERNAL_AUTH, useValue: InternalAuthKey.from('rate-limit-spec-internal-key-0123456789') },
      { provide: GATEWAY_ROUTES, useValue: [READ_ROUTE, ...WEBHOOK_ROUTES, ...PORTAL_ROUTES] },
    ],
  })
  class RateLimitGatewayModule {}
  const app = await NestFactory.create(RateLimitGatewayModule, { bodyParser: false, logger: false, abortOnError: false });
  apiGatewayService({}, { ...SETTINGS, trustedProxies: trusted }).configure?.(app);
  app.useGlobalFilters(new ProblemJsonFilter());
  await app.listen(0, '127.0.0.1');
  return app;
}

const SETTINGS: GatewaySettings = {
  auth: { apiKeys: [{ token: TOKEN, tenantId: 'tenant-a', roles: ['admin'] }] },
  rateLimitPerMinute: 1_000,
  unauthenticatedRateLimitPerMinute: UNAUTHENTICATED_BUDGET,
  webhookRateLimitPerMinute: WEBHOOK_BUDGET,
  portalRateLimitPerMinute: PORTAL_BUDGET,
  upstreamTimeoutMs: 2000,
  bodyLimit: '1mb',
};

describe('gateway: rate limits per client address', () => {
  const upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  let app: INestApplication;
  let untrusting: INestApplication;
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    app = await startGateway(upstreamUrl, ['loopback']);
    untrusting = await startGateway(upstreamUrl, []);
    base = urlOf(app);
  });

  afterAll(async () => {
    for (const a of [app, untrusting]) {
      (a.getHttpServer() as http.Server).closeAllConnections();
      await a.close();
    }
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  /** A call from `client` (an address the trusted loopback proxy names in X-Forwarded-For). */
  const call = (client: string, path: string, init: { token?: string; method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    fetch(`${base}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-forwarded-for': client, ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...init.headers },
      body: init.body,
    });

  it('answers 429 with Retry-After once an address has spent its budget without a valid token; a valid token still passes', async () => {
    const client = '198.51.100.1';
    for (let i = 0; i < UNAUTHENTICATED_BUDGET; i++) expect((await call(client, '/things')).status).toBe(401);
    const limited = await call(client, '/things', { token: 'not-the-token-0123456789abcdef' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await limited.json()).toMatchObject({ code: 'SVC-BE-1004', name: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-limit')).toBe(String(UNAUTHENTICATED_BUDGET));
    expect((await call(client, '/things', { token: TOKEN })).status).toBe(200);
    expect((await call('198.51.100.2', '/things')).status).toBe(401);
  });

  it('counts bad paths and unknown routes in the same budget, unless the request carries a valid token', async () => {
    const client = '198.51.100.3';
    for (let i = 0; i < 5; i++) expect((await call(client, '/nothing-here', { token: TOKEN })).status).toBe(404);
    expect((await call(client, '/things/x%2fy', { token: TOKEN })).status).toBe(400);
    expect((await call(client, '/nothing-here')).status).toBe(404);
    expect((await call(client, '/things/x%2fy')).status).toBe(400);
    expect((await call(client, '/things', { method: 'DELETE' })).status).toBe(405);
    expect((await call(client, '/nothing-here')).status).toBe(429);
    expect((await call(client, '/nothing-here', { token: TOKEN })).status).toBe(404);
  });

  it('gives webhook deliveries a budget of their own per address', async () => {
    const client = '198.51.100.4';
    const deliver = () => call(client, '/webhooks/inbound/mail', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    for (let i = 0; i < WEBHOOK_BUDGET; i++) expect((await deliver()).status).toBe(200);
    const limited = await deliver();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ code: 'SVC-BE-1004', detail: expect.stringContaining('webhook deliveries') });
    // The deliveries did not touch the address's budget for unauthenticated requests, nor that budget theirs.
    for (let i = 0; i < UNAUTHENTICATED_BUDGET; i++) expect((await call(client, '/things')).status).toBe(401);
    expect((await call(client, '/things')).status).toBe(429);
    expect((await call('198.51.100.5', '/webhooks/inbound/mail', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
  });

  it("gives the person's download page a budget of its own per address, with no token asked for", async () => {
    const client = '198.51.100.6';
    const open = () => call(client, '/portal/deliveries/3f0c7a52-8d4e-4b1f-9a6c-2e5d7b9f1a03', { headers: { 'x-delivery-link': 'c'.repeat(43) } });
    for (let i = 0; i < PORTAL_BUDGET; i++) expect((await open()).status).toBe(200);
    const limited = await open();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(await limited.json()).toMatchObject({ code: 'SVC-BE-1004', detail: expect.stringContaining('download page') });
    // Its calls did not spend the address's budget for unauthenticated requests, nor that budget theirs.
    for (let i = 0; i < UNAUTHENTICATED_BUDGET; i++) expect((await call(client, '/things')).status).toBe(401);
    expect((await call('198.51.100.7', '/portal/deliveries/3f0c7a52-8d4e-4b1f-9a6c-2e5d7b9f1a03', { headers: { 'x-delivery-link': 'c'.repeat(43) } })).status).toBe(200);
  });

  it("believes X-Forwarded-For only from a trusted proxy: without one, every forged address is the peer's", async () => {
    const direct = (client: string) => fetch(`${urlOf(untrusting)}/api/v1/things`, { headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < UNAUTHENTICATED_BUDGET; i++) expect((await direct(`192.0.2.${i + 1}`)).status).toBe(401);
    expect((await direct('192.0.2.200')).status).toBe(429);
  });

  it('counts the addresses of one IPv6 /64 network as one client', async () => {
    for (let i = 0; i < UNAUTHENTICATED_BUDGET; i++) expect((await call(`2001:db8:1:2::${i + 1}`, '/things')).status).toBe(401);
    expect((await call('2001:db8:1:2:ffff::9', '/things')).status).toBe(429);
    expect((await call('2001:db8:1:3::1', '/things')).status).toBe(401);
  });
});

describe('clientKeyOf', () => {
  const of = (ip: string) => clientKeyOf({ ip, socket: {} } as unknown as Request);

  it('keeps an IPv4 address, unwraps an IPv4-mapped one, and takes the /64 network of an IPv6 one', () => {
    expect(of('203.0.113.9')).toBe('203.0.113.9');
    expect(of('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(of('2001:db8:0:1:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:0:1::/64');
    expect(of('2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(of('::1')).toBe('0:0:0:0::/64');
    expect(of('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('the budgets per address in the configuration', () => {
  const parse = (env: Record<string, string>) => z.object(gatewayFields).parse({ DSAR_API_KEYS: undefined, ...env });

  it('default to 60 unauthenticated requests, 600 webhook deliveries and 60 calls of the download page a minute, and are off with RATE_LIMIT_PER_MINUTE=0 unless set', () => {
    expect(addressRateLimitsFrom(parse({}))).toEqual({ unauthenticatedRateLimitPerMinute: 60, webhookRateLimitPerMinute: 600, portalRateLimitPerMinute: 60 });
    expect(addressRateLimitsFrom(parse({ RATE_LIMIT_PER_MINUTE: '0' }))).toEqual({ unauthenticatedRateLimitPerMinute: 0, webhookRateLimitPerMinute: 0, portalRateLimitPerMinute: 0 });
    expect(addressRateLimitsFrom(parse({ RATE_LIMIT_PER_MINUTE: '0', UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: '30', WEBHOOK_RATE_LIMIT_PER_MINUTE: '0', PORTAL_RATE_LIMIT_PER_MINUTE: '20' }))).toEqual({
      unauthenticatedRateLimitPerMinute: 30,
      webhookRateLimitPerMinute: 0,
      portalRateLimitPerMinute: 20,
    });
  });

  it("take TRUSTED_PROXIES as addresses, CIDR ranges and Express's range names, and nothing else", () => {
    expect(parse({ TRUSTED_PROXIES: ' 10.0.0.0/8, loopback,fd00::/8 ,192.0.2.1' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', 'loopback', 'fd00::/8', '192.0.2.1']);
    for (const bad of ['10.0.0.0/33', 'proxy.internal', '10.0.0.0/8/1', '*']) expect(() => parse({ TRUSTED_PROXIES: bad })).toThrow(/CIDR/);
  });
});
