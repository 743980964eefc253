import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { z } from 'zod';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { ConsoleController } from './console.controller';
import { consoleFields, consoleSettingsFrom, type ConsoleSettings, DEFAULT_CONSOLE_OIDC_SCOPE, requireConsoleSettings } from './console-settings';
import { CONSOLE_SETTINGS } from './gateway-tokens';

/** A console build of a few files, as Vite lays it out. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Console</title><script type="module" src="/console/assets/index-abc123.js"></script>');
  writeFileSync(join(dir, 'assets/index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets/index-abc123.css'), 'body{}');
  writeFileSync(join(dir, 'secret.env'), 'KEY=1');
  return dir;
}

async function serve(settings: ConsoleSettings): Promise<{ app: INestApplication; base: string }> {
  @Module({ controllers: [ConsoleController], providers: [{ provide: CONSOLE_SETTINGS, useValue: settings }] })
  class ConsoleModule {}
  const app = await NestFactory.create(ConsoleModule, { logger: false, abortOnError: false });
  app.useGlobalFilters(new ProblemJsonFilter());
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

describe('the console at /console/', () => {
  const dir = fakeBuild();
  const oidc = { issuer: 'https://id.example.org/realms/dsar', clientId: 'dsar-console', scope: 'openid profile', resource: 'dsar-api' };
  let app: INestApplication;
  let base: string;

  beforeAll(async () => ({ app, base } = await serve({ dir, oidc, keySignIn: false })));
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page for its own routes, with a CSP that allows no inline code and only the issuer besides itself', async () => {
    for (const path of ['/console/', '/console/requests', '/console/requests/3f0c2b1e-0000-4000-8000-000000000001', '/console/signed-in?code=x&state=y']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
      expect(await res.text()).toContain('<title>Console</title>');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
    const res = await fetch(`${base}/console/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("connect-src 'self' https://id.example.org;");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('unsafe');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('serves the hashed assets as immutable, with their media types', async () => {
    const js = await fetch(`${base}/console/assets/index-abc123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log(1)');
    expect((await fetch(`${base}/console/assets/index-abc123.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for a missing asset, a file of another kind and a path out of the build, never the page', async () => {
    for (const path of ['/console/assets/gone-000.js', '/console/secret.env', '/console/..%2Fpackage.json', '/console/%E0%A4%A0.js', '/console/favicon.ico']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('sends /console to /console/', async () => {
    const res = await fetch(`${base}/console`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/console/');
  });

  it('tells the console how to sign in', async () => {
    const res = await fetch(`${base}/console/config.json`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ apiBase: '/api/v1', oidc: { authority: oidc.issuer, clientId: 'dsar-console', scope: 'openid profile', resource: 'dsar-api' }, keySignIn: false });
  });

  it('answers 404 with a problem when the console is not built', async () => {
    const empty = await serve({ dir: join(dir, 'nothing-here'), keySignIn: true });
    try {
      const res = await fetch(`${empty.base}/console/`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toBe('The console is not built in this installation.');
      expect(await (await fetch(`${empty.base}/console/config.json`)).json()).toEqual({ apiBase: '/api/v1', oidc: null, keySignIn: true });
    } finally {
      await empty.app.close();
    }
  });
});

describe('console settings', () => {
  const schema = z.object(consoleFields).superRefine(requireConsoleSettings);

  it('signs in with the API keys when no issuer is configured, and with the issuer (not the keys) when one is', () => {
    expect(consoleSettingsFrom(schema.parse({}))).toMatchObject({ keySignIn: true });
    expect(consoleSettingsFrom(schema.parse({})).oidc).toBeUndefined();
    const withIssuer = consoleSettingsFrom({ ...schema.parse({ CONSOLE_OIDC_ISSUER: 'https://id.example.org', CONSOLE_OIDC_CLIENT_ID: 'c' }), AUTH_AUDIENCE: 'https://api.example.org' });
    expect(withIssuer).toMatchObject({ oidc: { issuer: 'https://id.example.org', clientId: 'c', scope: DEFAULT_CONSOLE_OIDC_SCOPE, resource: 'https://api.example.org' }, keySignIn: false });
    // RFC 8707 takes absolute URIs only: an audience such as `dsar-api` is left to the issuer's own settings.
    expect(consoleSettingsFrom({ CONSOLE_OIDC_ISSUER: 'https://id.example.org', CONSOLE_OIDC_CLIENT_ID: 'c', AUTH_AUDIENCE: 'dsar-api' }).oidc?.resource).toBeUndefined();
    expect(schema.safeParse({ CONSOLE_OIDC_ISSUER: 'https://id.example.org', CONSOLE_OIDC_CLIENT_ID: 'c', CONSOLE_OIDC_RESOURCE: 'dsar-api' }).success).toBe(false);
    expect(schema.parse({ CONSOLE_OIDC_ISSUER: 'https://id.example.org', CONSOLE_OIDC_CLIENT_ID: 'c', CONSOLE_OIDC_RESOURCE: 'urn:example:dsar' }).CONSOLE_OIDC_RESOURCE).toBe('urn:example:dsar');
    expect(consoleSettingsFrom({ CONSOLE_OIDC_CLIENT_ID: 'c', CONSOLE_KEY_SIGN_IN: true, AUTH_JWKS_URL: 'https://id.example.org/jwks', AUTH_ISSUER: 'https://id.example.org' })).toMatchObject({
      oidc: { issuer: 'https://id.example.org' },
      keySignIn: true,
    });
  });

  it('refuses a client id without an issuer, and an issuer without a client id', () => {
    expect(schema.safeParse({ CONSOLE_OIDC_CLIENT_ID: 'c' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['CONSOLE_OIDC_ISSUER']);
    expect(schema.safeParse({ CONSOLE_OIDC_ISSUER: 'https://id.example.org' }).error?.issues.map((i) => i.path.join('.'))).toEqual(['CONSOLE_OIDC_CLIENT_ID']);
    expect(schema.safeParse({ CONSOLE_OIDC_ISSUER: 'ftp://id.example.org', CONSOLE_OIDC_CLIENT_ID: 'c' }).success).toBe(false);
  });
});
