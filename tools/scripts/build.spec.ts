import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildProduct } from './build';
import type { CycloneDxBom } from './sbom';

/** `npm run build` (tools/scripts/build.ts) as the image's build stage runs it, into a directory of its own. */
const root = path.resolve(__dirname, '../..');

describe('npm run build', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dsar-build-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the compiled product and, beside it, the bill of materials of its production dependencies', async () => {
    const out = path.join(dir, 'dist');
    const result = await buildProduct(out);

    expect(existsSync(path.join(out, 'apps/api-gateway/src/main.js'))).toBe(true);
    const bom = JSON.parse(await readFile(path.join(out, 'sbom.cdx.json'), 'utf8')) as CycloneDxBom;
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5' });
    expect(result.sbomComponents).toBe(bom.components.length);
    const lock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    // The console's bundled packages are production dependencies: the bill names what the image serves to browsers too.
    for (const name of ['pg', 'kafkajs', 'preact', 'oidc-client-ts']) {
      expect(bom.components.map((c) => c['bom-ref'])).toContain(`${name}@${lock.packages[`node_modules/${name}`].version}`);
    }
  }, 180_000);

  it('bundles the operator console into console/, under 300 KB gzipped and with no source or test file', () => {
    const consoleDir = path.join(dir, 'dist/console');
    const files = readdirSync(consoleDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(consoleDir, path.join(e.parentPath, e.name)));
    expect(files).toContain('index.html');
    expect(files.filter((f) => /\.(tsx?|map)$|spec/.test(f))).toEqual([]);
    const gzipped = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(consoleDir, f))).length, 0);
    expect(gzipped).toBeLessThan(300 * 1024);
    // Nothing of the console is compiled module by module into apps/.
    expect(existsSync(path.join(dir, 'dist/apps/console'))).toBe(false);
  });

  it("bundles the person's download page into console/portal/: its own few files, under 20 KB gzipped, none of the console's code", () => {
    const portalDir = path.join(dir, 'dist/console/portal');
    const files = readdirSync(portalDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(portalDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .sort();
    expect(files).toContain('index.html');
    for (const file of files) expect(file).toMatch(/^index\.html$|^assets\/[\w-]+\.(js|css|svg)$/);
    const gzipped = files.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(portalDir, f))).length, 0);
    expect(gzipped).toBeLessThan(20 * 1024);
    // The page names its files under /portal/ (where the gateway serves them, with its own CSP), one script, no inline code.
    const page = readFileSync(path.join(portalDir, 'index.html'), 'utf8');
    const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url).toMatch(/^\/portal\/assets\//);
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\sstyle=/);
    // A chunk shared with the console would be named under the console's assets: the page's script imports nothing.
    for (const js of files.filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(path.join(portalDir, js), 'utf8');
      expect(code).not.toMatch(/\bimport\s*[\s{*"'(]|\/console\//);
      expect(code).not.toContain('preact');
    }
    const consoleRoot = readdirSync(path.join(dir, 'dist/console/assets'));
    expect(consoleRoot.filter((f) => f.startsWith('portal'))).toEqual([]);
  });
});
