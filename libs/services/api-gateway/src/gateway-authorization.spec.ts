import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IdentityHeaders, ROLES } from '@dsar/contracts';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { INTERNAL_AUTH, InternalAuthKey } from '@dsar/platform/http';
import { authorizationCases } from './authorization-matrix';
import { Forwarder } from './forwarder';
import { GatewayController } from './gateway.controller';
import type { GatewaySettings } from './gateway-settings';
import { GATEWAY_SETTINGS } from './gateway-tokens';
import { PUBLIC } from './route-types';
import { ROUTES } from './routes';
import { GATEWAY_SERVICE } from './session-routes';
import { UPSTREAMS } from './upstreams';

/**
 * The gateway's authorization over the whole route table, against one stand-in for every service that answers
 * 200 to anything and records what reached it: for every route, every role, a tenant-wide caller and one confined
 * to a workspace, the gateway either refuses (403 PERMISSION_DENIED, nothing forwarded) or forwards with the
 * caller's workspace. A route joins by being in the table. Tenants, workspaces and resources are the services'
 * part: the end-to-end matrix (tools/embedded/src/authorization-matrix.e2e-spec.ts) covers them.
 */

const WORKSPACE = 'north';
const tokenOf = (role: string, confined: boolean) => `gateway-authz-${role}-${confined ? WORKSPACE : 'tenant'}-0123456789`;

describe('gateway: who may call each route', () => {
  const reached: Array<{ url: string; workspace: string | undefined }> = [];
  const upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      reached.push({ url: req.url ?? '', workspace: req.headers[IdentityHeaders.workspace] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  let app: INestApplication;
  let base: string;
  const settings: GatewaySettings = {
    auth: {
      apiKeys: ROLES.flatMap((role) => [false, true].map((confined) => ({ token: tokenOf(role, confined), tenantId: 'tenant-a', ...(confined ? { workspaceId: WORKSPACE } : {}), roles: [role] }))),
    },
    rateLimitPerMinute: 0,
    upstreamTimeoutMs: 2000,
    bodyLimit: '1mb',
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    @Module({
      controllers: [GatewayController],
      providers: [
        Forwarder,
        { provide: UPSTREAMS, useValue: Object.fromEntries(ROUTES.map((r) => [r.service, url])) },
        { provide: GATEWAY_SETTINGS, useValue: settings },
        { provide: INTERNAL_AUTH, useValue: InternalAuthKey.from('gateway-authz-internal-key-0123456789') },
      ],
    })
    class AuthorizationGatewayModule {}
    app = await NestFactory.create(AuthorizationGatewayModule, { bodyParser: false, logger: false, abortOnError: false });
    app.useGlobalFilters(new ProblemJsonFilter());
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await app.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const authenticated = ROUTES.filter((r) => r.permission !== PUBLIC);

  it('has tenant-wide routes and workspace routes to check', () => {
    expect(authenticated.filter((r) => r.tenantWide).length).toBeGreaterThan(0);
    expect(authenticated.filter((r) => !r.tenantWide).length).toBeGreaterThan(0);
  });

  it('refuses exactly the callers the roles table and the tenant-wide rule refuse, before forwarding anything', async () => {
    const wrong: string[] = [];
    for (const { route, role, confined, path, refused, lacksQuery } of authorizationCases(ROUTES)) {
      reached.length = 0;
      const res = await fetch(`${base}${path}`, { method: route.method, headers: { authorization: `Bearer ${tokenOf(role, confined)}` } });
      const body = (await res.json()) as { code?: string };
      const seen = { status: res.status, code: res.status === 403 ? body.code : undefined, forwarded: reached.length > 0 };
      const expected = refused
        ? { status: 403, code: 'SVC-BE-1302', forwarded: false }
        : lacksQuery
          ? { status: 400, code: undefined, forwarded: false }
          : // An upload without its declared headers stops at the gateway (400) after authorization; a route the gateway
            // answers itself (GET /session) reaches no service; anything else does.
            { status: route.upload ? seen.status : 200, code: undefined, forwarded: route.service !== GATEWAY_SERVICE && (!route.upload || seen.forwarded) };
      if (JSON.stringify(seen) !== JSON.stringify(expected))
        wrong.push(`${route.method} ${route.path} as ${role}${confined ? ` of ${WORKSPACE}` : ''}: ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
      if (!refused && seen.forwarded && reached.some((r) => r.workspace !== (confined ? WORKSPACE : undefined)))
        wrong.push(`${route.method} ${route.path} as ${role}: forwarded without the caller's workspace`);
      if (!refused && !route.upload && !lacksQuery && seen.status !== 200) wrong.push(`${route.method} ${route.path} as ${role}: ${seen.status}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('says why a caller confined to a workspace is refused on a tenant-wide route', async () => {
    const route = authenticated.find((r) => r.tenantWide && r.permission === 'retention:manage')!;
    const res = await fetch(`${base}/api/v1${route.path.replace(/:(\w+)/g, 'tenant-a')}`, { method: route.method, headers: { authorization: `Bearer ${tokenOf('admin', true)}` } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/acts on the whole tenant: a caller confined to one workspace may not/);
  });
});
