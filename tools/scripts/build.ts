import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { transformFile } from '@swc/core';
import { buildConsole } from './console-build';
import { SBOM_FILE_NAME, writeSbom } from './sbom';

/**
 * `npm run build`: the product compiled to JavaScript in `dist/` (ADR 0030), what the image runs. swc with the
 * workspace's settings (.swcrc: decorators and their metadata, ES2022, CommonJS), as tools/scripts/run-ts.cjs
 * compiles at start for development, and the path aliases of tsconfig.base.json rewritten to relative requires.
 *
 * apps/, libs/, tools/embedded/ and tools/scripts/ keep their layout under the output directory, with the files the
 * code reads from __dirname beside them (deploy/kafka/topics.yaml, package.json) and the JSON and YAML the modules
 * import. Tests and test scenarios are left out. node_modules is found the usual way, above the output directory
 * (`dist/` in the repository or in the image); a build elsewhere links it. Each module gets a source map file,
 * read only when Node runs with --enable-source-maps. Beside them, `sbom.cdx.json`: the CycloneDX bill of the production
 * dependencies as package-lock.json pins them (./sbom.ts), which the image carries with the rest of `dist/`.
 */

export const REPO_ROOT = resolve(__dirname, '../..');
export const DEFAULT_OUT_DIR = join(REPO_ROOT, 'dist');

const SOURCES = ['apps', 'libs', 'tools/embedded', 'tools/scripts'];
/** Test files, and the folders of test scenarios (also kept out of the image's build context, .dockerignore). */
const TEST_FILE = /\.(spec|int-spec|e2e-spec|resilience-spec)\.ts$/;
const TEST_DIRS = new Set(['tools/embedded/src/e2e', 'tools/embedded/src/resilience']);
/** The console is bundled by Vite into `console/` of the output (./console-build.ts), not compiled module by module. */
const BUNDLED_DIRS = new Set(['apps/console']);
const ASSET = /\.(json|ya?ml|cjs|hbs|txt|sql)$/;
/** Workspace files that are not the product's. */
const NOT_PRODUCT = /(^|\/)(project\.json|tsconfig[^/]*\.json)$/;
/** Files outside the sources that the code reads relative to its own directory. */
const READ_AT_RUN_TIME = ['deploy/kafka/topics.yaml', 'package.json'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || TEST_DIRS.has(relative(REPO_ROOT, path)) || BUNDLED_DIRS.has(relative(REPO_ROOT, path)) ? [] : filesUnder(path);
    return [path];
  });
}

export interface BuildResult {
  dir: string;
  /** TypeScript modules compiled. */
  files: number;
  /** Production packages listed in the bill of materials. */
  sbomComponents: number;
  ms: number;
}

/** Compiles the product into `outDir` (emptied first: nothing stale survives a build). */
export async function buildProduct(outDir = DEFAULT_OUT_DIR): Promise<BuildResult> {
  const t0 = performance.now();
  const swcrc = JSON.parse(readFileSync(join(REPO_ROOT, '.swcrc'), 'utf8')) as { jsc: Record<string, unknown>; module: Record<string, unknown> };
  const { compilerOptions } = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  const files = SOURCES.flatMap((s) => filesUnder(join(REPO_ROOT, s)));
  const sources = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !TEST_FILE.test(f));
  const assets = files.filter((f) => ASSET.test(f) && !NOT_PRODUCT.test(f));
  rmSync(outDir, { recursive: true, force: true });

  // swc is native and multi-threaded: a few files at a time keep the cores busy without flooding memory.
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < sources.length) {
      const file = sources[next++];
      const out = join(outDir, relative(REPO_ROOT, file)).replace(/\.ts$/, '.js');
      const { code, map } = await transformFile(file, {
        swcrc: false,
        jsc: { ...swcrc.jsc, baseUrl: REPO_ROOT, paths: compilerOptions.paths },
        module: swcrc.module as { type: 'commonjs' },
        sourceMaps: true,
        sourceFileName: relative(dirname(out), file),
      });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${code}\n//# sourceMappingURL=${basename(out)}.map\n`);
      if (map) writeFileSync(`${out}.map`, map);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  for (const file of [...assets, ...READ_AT_RUN_TIME.map((f) => join(REPO_ROOT, f))]) {
    const out = join(outDir, relative(REPO_ROOT, file));
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(file, out);
  }
  // Outside the repository (the benchmarks' scratch directory) nothing above the output holds node_modules.
  if (relative(REPO_ROOT, outDir).startsWith('..')) symlinkSync(join(REPO_ROOT, 'node_modules'), join(outDir, 'node_modules'));
  // The gateway serves the console from `console/` beside `libs/` (DEFAULT_CONSOLE_DIR).
  buildConsole(join(outDir, 'console'));
  const sbom = await writeSbom(join(outDir, SBOM_FILE_NAME));
  return { dir: outDir, files: sources.length, sbomComponents: sbom.components.length, ms: performance.now() - t0 };
}

// Run only as the entry point (run-ts.cjs puts it in argv[1]), not when the benchmark harness imports it.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === __filename) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : DEFAULT_OUT_DIR;
  buildProduct(outDir).then(
    (b) =>
      process.stdout.write(
        `built ${b.files} modules into ${relative(process.cwd(), b.dir) || '.'} in ${(b.ms / 1000).toFixed(1)} s, ` + `with ${SBOM_FILE_NAME} listing ${b.sbomComponents} production packages\n`,
      ),
    (e) => {
      process.stderr.write(`build failed: ${(e as Error).stack ?? String(e)}\n`);
      process.exit(1);
    },
  );
}
