import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { ConsoleController } from './console.controller';
import type { ConsoleSettings } from './console-settings';
import { CONSOLE_SETTINGS } from './gateway-tokens';
import { PORTAL_CONTENT_SECURITY_POLICY, PortalController } from './portal.controller';

/** A console build holding the download page in portal/, as the Vite build lays them out. */
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'portal/assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Console</title>');
  writeFileSync(join(dir, 'assets/index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'portal/index.html'), '<!doctype html><title>Your files</title><script type="module" src="/portal/assets/portal-def456.js"></script>');
  writeFileSync(join(dir, 'portal/assets/portal-def456.js'), 'document.title');
  writeFileSync(join(dir, 'portal/assets/portal-def456.css'), 'main{}');
  writeFileSync(join(dir, 'portal/assets/icon-0a1b2c.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'portal/notes.md'), '# not served');
  return dir;
}

async function serve(settings: ConsoleSettings): Promise<{ app: INestApplication; base: string }> {
  @Module({ controllers: [ConsoleController, PortalController], providers: [{ provide: CONSOLE_SETTINGS, useValue: settings }] })
  class PagesModule {}
  const app = await NestFactory.create(PagesModule, { logger: false, abortOnError: false });
  app.useGlobalFilters(new ProblemJsonFilter());
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}` };
}

describe('the download page at /portal/', () => {
  const dir = fakeBuild();
  let app: INestApplication;
  let base: string;

  beforeAll(async () => ({ app, base } = await serve({ dir, keySignIn: true })));
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves its page, never cached, under a CSP that allows its own files and calls to this origin only', async () => {
    for (const path of ['/portal/', '/portal/index.html']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({ path, status: 200, type: 'text/html; charset=utf-8' });
      expect(await res.text()).toContain('<title>Your files</title>');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(PORTAL_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|data:|\*/);
  });

  it('answers HEAD like GET, without the body', async () => {
    const res = await fetch(`${base}/portal/`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String('<!doctype html><title>Your files</title><script type="module" src="/portal/assets/portal-def456.js"></script>'.length));
    expect(await res.text()).toBe('');
  });

  it('serves its hashed assets as immutable, with their media types and the same headers', async () => {
    const js = await fetch(`${base}/portal/assets/portal-def456.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await js.text()).toBe('document.title');
    expect((await fetch(`${base}/portal/assets/portal-def456.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${base}/portal/assets/icon-0a1b2c.svg`)).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers 404 for any other path: it has one page, and no file outside its folder', async () => {
    for (const path of [
      '/portal/files',
      '/portal/5b0e6f0c-2f4a-4d8e-9a61-7c3d2b1a0f9e',
      '/portal/assets/gone-000.js',
      '/portal/notes.md',
      '/portal/..%2Findex.html',
      '/portal/%2E%2E/assets/index-abc123.js',
      '/portal/%E0%A4%A0',
    ]) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('sends /portal to /portal/', async () => {
    const res = await fetch(`${base}/portal`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/portal/');
  });

  it('is not served under /console/, whose CSP is not its own', async () => {
    for (const path of ['/console/portal/index.html', '/console/portal/assets/portal-def456.js']) expect({ path, status: (await fetch(`${base}${path}`)).status }).toEqual({ path, status: 404 });
    expect((await fetch(`${base}/console/assets/index-abc123.js`)).status).toBe(200);
  });

  it('answers 404 with a problem when it is not built', async () => {
    const empty = await serve({ dir: join(dir, 'nothing-here'), keySignIn: true });
    try {
      const res = await fetch(`${empty.base}/portal/`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toBe('The download page is not built in this installation.');
    } finally {
      await empty.app.close();
    }
  });
});
