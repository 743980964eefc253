import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformFile } from '@swc/core';
import { REPO_ROOT } from './util';

/**
 * The product as built JavaScript, for the footprint benchmark ("when started from the built output"). The
 * repository has no build step of its own (the services compile their TypeScript at start through
 * tools/scripts/run-ts.cjs, and so does the image), so this makes one the way run-ts.cjs compiles: swc with
 * the workspace's settings (.swcrc: decorators and their metadata, ES2022, CommonJS) and the path aliases of
 * tsconfig.base.json rewritten to relative requires. apps/, libs/ and tools/embedded/ keep their layout under
 * `outDir`, so that the paths the code resolves from __dirname (deploy/kafka/topics.yaml, package.json) still
 * hold; node_modules, deploy and docs are symlinks to the repository's. Tests are left out.
 */

const SOURCES = ['apps', 'libs', 'tools/embedded'];
const TEST_FILE = /\.(spec|int-spec|e2e-spec|resilience-spec)\.ts$/;
const ASSET = /\.(json|ya?ml|cjs|hbs|txt|sql)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : filesUnder(path);
    return [path];
  });
}

export interface BuiltOutput {
  dir: string;
  files: number;
  ms: number;
  /** The built entry of a service (apps/<name>/src/main.js), of embedded mode (`embedded`) or of the migrations (`migrate`). */
  entry(app: string): string;
}

export async function buildProduct(outDir: string): Promise<BuiltOutput> {
  const t0 = performance.now();
  const swcrc = JSON.parse(readFileSync(join(REPO_ROOT, '.swcrc'), 'utf8')) as { jsc: Record<string, unknown>; module: Record<string, unknown> };
  const { compilerOptions } = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  const files = SOURCES.flatMap((s) => filesUnder(join(REPO_ROOT, s)));
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !TEST_FILE.test(f));
  const assets = files.filter((f) => ASSET.test(f));

  // swc is native and multi-threaded: a few files at a time keep both cores busy without flooding memory.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sources.length) {
      const file = sources[next++];
      const out = join(outDir, relative(REPO_ROOT, file)).replace(/\.ts$/, '.js');
      const { code } = await transformFile(file, {
        swcrc: false,
        jsc: { ...swcrc.jsc, baseUrl: REPO_ROOT, paths: compilerOptions.paths },
        module: swcrc.module as { type: 'commonjs' },
        sourceMaps: false,
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, code);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  for (const a of assets) {
    const out = join(outDir, relative(REPO_ROOT, a));
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(a, out);
  }
  for (const link of ['node_modules', 'deploy', 'docs']) symlinkSync(join(REPO_ROOT, link), join(outDir, link));
  copyFileSync(join(REPO_ROOT, 'package.json'), join(outDir, 'package.json'));
  return {
    dir: outDir,
    files: sources.length,
    ms: performance.now() - t0,
    entry: (app) =>
      app === 'embedded' ? join(outDir, 'tools/embedded/src/main.js') : app === 'migrate' ? join(outDir, 'tools/embedded/src/migrate.js') : join(outDir, 'apps', app, 'src/main.js'),
  };
}
