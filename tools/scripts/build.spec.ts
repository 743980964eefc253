import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
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
    for (const name of ['pg', 'kafkajs']) {
      expect(bom.components.map((c) => c['bom-ref'])).toContain(`${name}@${lock.packages[`node_modules/${name}`].version}`);
    }
  }, 180_000);
});
