import type { AddressInfo } from 'node:net';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ProblemJsonFilter } from '@dsar/platform/errors';
import { ApiDocsController } from './api-docs.controller';
import { OpenApiController } from './openapi.controller';

/** The API reference page: every file it names is served, and it reads the published document. */
describe('the API reference at /api/docs', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    @Module({ controllers: [OpenApiController, ApiDocsController] })
    class DocsModule {}
    app = await NestFactory.create(DocsModule, { logger: false, abortOnError: false });
    app.useGlobalFilters(new ProblemJsonFilter());
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  it('is a Swagger UI page whose scripts, style sheet and icons are all served, with their media types', async () => {
    const page = await fetch(`${base}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('id="swagger-ui"');
    const linked = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(linked).toEqual(expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css', '/api/docs/reference.js']));
    const types: Record<string, string | null> = {};
    for (const path of linked) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      types[path.slice(path.lastIndexOf('.') + 1)] = res.headers.get('content-type');
    }
    expect(types).toEqual({ js: 'application/javascript; charset=utf-8', css: 'text/css; charset=utf-8', png: 'image/png' });
  });

  it('starts Swagger UI on /api/v1/openapi.json, which is served', async () => {
    expect(await (await fetch(`${base}/api/docs/reference.js`)).text()).toContain("url: '/api/v1/openapi.json'");
    const doc = await fetch(`${base}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('serves no other file', async () => {
    for (const name of ['package.json', 'index.html', 'swagger-initializer.js', '..%2Fpackage.json']) {
      expect({ name, status: (await fetch(`${base}/api/docs/${name}`)).status }).toEqual({ name, status: 404 });
    }
  });
});
