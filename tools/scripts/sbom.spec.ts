import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type CycloneDxBom, type PackageLock, productionBom, productionRefs, writeSbom } from './sbom';

/**
 * The bill of materials `npm run build` writes (tools/scripts/sbom.ts): CycloneDX JSON that lists every production
 * package at the version package-lock.json pins, and nothing that only development needs.
 */
const root = path.resolve(__dirname, '../..');
const readJson = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

describe('the build’s bill of materials, from the repository’s lock file', () => {
  let dir: string;
  let bom: CycloneDxBom;
  let lock: PackageLock;
  let manifest: { name: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dsar-sbom-'));
    await writeSbom(path.join(dir, 'sbom.cdx.json'));
    bom = await readJson<CycloneDxBom>(path.join(dir, 'sbom.cdx.json'));
    lock = await readJson<PackageLock>(path.join(root, 'package-lock.json'));
    manifest = await readJson(path.join(root, 'package.json'));
  }, 150_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const locked = (name: string) => lock.packages[`node_modules/${name}`].version;
  const refs = () => bom.components.map((c) => c['bom-ref']);

  it('is CycloneDX 1.5 JSON describing the product as an application', () => {
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5', version: 1 });
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(bom.metadata.component).toMatchObject({ name: manifest.name, type: 'application', 'bom-ref': `${manifest.name}@0.1.0` });
  });

  it('lists pg and kafkajs at their locked versions, with their package URLs and the lock file’s hashes', () => {
    for (const name of ['pg', 'kafkajs']) {
      const component = bom.components.find((c) => c.name === name);
      expect(component).toMatchObject({ 'bom-ref': `${name}@${locked(name)}`, version: locked(name), purl: `pkg:npm/${name}@${locked(name)}` });
      expect(component?.hashes).toEqual([{ alg: 'SHA-512', content: expect.stringMatching(/^[0-9a-f]{128}$/) }]);
    }
  });

  it('lists every production package of the lock file, also those a development tool installs as well', () => {
    // With npm's own `--omit dev` the Nest packages, kafkajs and nodemailer went missing (npm/cli#7909).
    for (const name of Object.keys(manifest.dependencies)) expect(refs()).toContain(`${name}@${locked(name)}`);
    expect(new Set(refs())).toEqual(productionRefs(lock));
  });

  it('leaves out what only development needs, and marks nothing as development', () => {
    const productionNames = new Set(bom.components.map((c) => c.name));
    for (const name of ['jest', 'eslint', 'nx', '@nestjs/testing', 'supertest']) {
      expect(Object.keys(manifest.devDependencies)).toContain(name);
      expect(productionNames).not.toContain(name);
    }
    expect(bom.components.flatMap((c) => c.properties ?? []).filter((p) => p.name === 'cdx:npm:package:development')).toEqual([]);
  });

  it('names each component once, and its dependency graph only what it lists', () => {
    expect(new Set(refs()).size).toBe(bom.components.length);
    const listed = new Set([bom.metadata.component['bom-ref'], ...refs()]);
    expect(bom.dependencies.map((d) => d.ref).filter((ref) => !listed.has(ref))).toEqual([]);
    expect(bom.dependencies.flatMap((d) => d.dependsOn).filter((ref) => !listed.has(ref))).toEqual([]);
    const rootEdges = bom.dependencies.find((d) => d.ref === bom.metadata.component['bom-ref'])?.dependsOn ?? [];
    expect([...rootEdges].sort()).toEqual(
      Object.keys(manifest.dependencies)
        .map((n) => `${n}@${locked(n)}`)
        .sort(),
    );
  });
});

describe('productionBom', () => {
  const component = (ref: string, dev = false) => ({
    'bom-ref': ref,
    name: ref.slice(0, ref.lastIndexOf('@')),
    version: ref.slice(ref.lastIndexOf('@') + 1),
    properties: dev ? [{ name: 'cdx:npm:package:development', value: 'true' }] : [],
  });
  const lock: PackageLock = {
    packages: {
      '': { name: 'product', version: '1.0.0' },
      'node_modules/orm': { version: '1.0.0' },
      'node_modules/orm/node_modules/glob': { version: '10.0.0' },
      'node_modules/coverage/node_modules/glob': { version: '10.0.0', dev: true },
      'node_modules/coverage': { version: '7.0.0', dev: true },
      'node_modules/wrap-cjs': { name: 'wrap', version: '7.0.0' },
    },
  };
  // As npm 10 writes it: the development copy of glob first (by path), and once per copy.
  const whole: CycloneDxBom = {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    metadata: { component: { 'bom-ref': 'product@1.0.0', name: 'app' } },
    components: [component('coverage@7.0.0', true), component('glob@10.0.0', true), component('orm@1.0.0'), component('glob@10.0.0'), component('wrap@7.0.0')],
    dependencies: [
      { ref: 'product@1.0.0', dependsOn: ['orm@1.0.0', 'coverage@7.0.0', 'wrap@7.0.0', 'glob@10.0.0'] },
      { ref: 'coverage@7.0.0', dependsOn: ['glob@10.0.0'] },
      { ref: 'glob@10.0.0', dependsOn: [] },
      { ref: 'orm@1.0.0', dependsOn: ['glob@10.0.0'] },
      { ref: 'glob@10.0.0', dependsOn: [] },
      { ref: 'wrap@7.0.0', dependsOn: [] },
    ],
  };

  it('keeps a production package whose first copy is a development tool’s, once and unmarked, and drops the tool', () => {
    // The product also names glob among its development dependencies: that edge is not production's.
    const bom = productionBom(whole, lock, { name: 'product', dependencies: { orm: '1.0.0', 'wrap-cjs': 'npm:wrap@7.0.0' } });
    expect(bom.components).toEqual([component('glob@10.0.0'), component('orm@1.0.0'), component('wrap@7.0.0')]);
    expect(bom.dependencies).toEqual([
      { ref: 'product@1.0.0', dependsOn: ['orm@1.0.0', 'wrap@7.0.0'] },
      { ref: 'glob@10.0.0', dependsOn: [] },
      { ref: 'orm@1.0.0', dependsOn: ['glob@10.0.0'] },
      { ref: 'wrap@7.0.0', dependsOn: [] },
    ]);
    expect(bom.metadata.component.name).toBe('product');
  });

  it('takes an alias by the real package’s name, as npm’s bom-ref does', () => {
    expect(productionRefs(lock)).toEqual(new Set(['orm@1.0.0', 'glob@10.0.0', 'wrap@7.0.0']));
  });
});
