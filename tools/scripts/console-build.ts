import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The operator console's build (`npm run console:build`, docs/console.md): Vite bundles apps/console into static
 * files that the api-gateway serves under /console/, and the person's download page (apps/console/portal, a second
 * entry of the same build, docs/delivery.md) into `portal/` of the same output, which it serves under /portal/.
 * `npm start`, the tests and `npm run build` call `ensureConsoleBuilt`, which builds only when the sources changed
 * since the last build: a stamp in the output holds the digest of the sources it was built from.
 */

const REPO_ROOT = resolve(__dirname, '../..');
export const CONSOLE_SOURCE_DIR = join(REPO_ROOT, 'apps/console');
export const CONSOLE_OUT_DIR = join(REPO_ROOT, 'dist/console');
const STAMP = '.source-digest';
/** What the bundle is made of, beside the folders of sources: the page, the build's own settings and the pinned packages. */
const INPUTS = ['index.html', 'vite.config.ts', 'tsconfig.json'];
/** The folders of sources: the console's, and the download page's (its page, style sheet, icon and code). */
const SOURCE_DIRS = ['src', 'portal'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();
}

/** The digest of everything the build reads: a change to any of it, or to the lock file, builds again. */
export function consoleSourceDigest(sourceDir = CONSOLE_SOURCE_DIR): string {
  const hash = createHash('sha256');
  const sources = SOURCE_DIRS.flatMap((dir) => filesUnder(join(sourceDir, dir))).filter((f) => !/\.spec\.tsx?$/.test(f));
  const files = [...INPUTS.map((f) => join(sourceDir, f)), ...sources, join(REPO_ROOT, 'package-lock.json')];
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(relative(REPO_ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

export interface ConsoleBuild {
  dir: string;
  /** False when the output was already built from the same sources. */
  built: boolean;
  ms: number;
}

/** Builds the console into `outDir` (Vite empties it first). Throws with Vite's output when the build fails. */
export function buildConsole(outDir = CONSOLE_OUT_DIR): ConsoleBuild {
  const t0 = performance.now();
  // Vite's exports map lists its package.json, not its bin: the bin is found beside it.
  const vite = join(dirname(require.resolve('vite/package.json')), 'bin/vite.js');
  const run = spawnSync(process.execPath, [vite, 'build', '--config', join(CONSOLE_SOURCE_DIR, 'vite.config.ts'), '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (run.status !== 0) throw new Error(`the console's build failed (vite exit ${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`);
  writeFileSync(join(outDir, STAMP), `${consoleSourceDigest()}\n`);
  return { dir: outDir, built: true, ms: performance.now() - t0 };
}

/** Builds the console unless `outDir` holds a build of the current sources. */
export function ensureConsoleBuilt(outDir = CONSOLE_OUT_DIR): ConsoleBuild {
  const stamp = join(outDir, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === consoleSourceDigest()) return { dir: outDir, built: false, ms: 0 };
  return buildConsole(outDir);
}

// Run only as the entry point (run-ts.cjs puts it in argv[1]), not when another script imports it.
// `--if-stale` (npm start, the tests) builds only when the sources changed; an argument names another output folder.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === __filename) {
  const args = process.argv.slice(2);
  const ifStale = args.includes('--if-stale');
  const folder = args.find((a) => !a.startsWith('--'));
  try {
    const outDir = folder ? resolve(folder) : CONSOLE_OUT_DIR;
    // An installation without the console's sources (the image) serves the build it carries.
    if (ifStale && !existsSync(CONSOLE_SOURCE_DIR)) process.exit(0);
    const b = ifStale ? ensureConsoleBuilt(outDir) : buildConsole(outDir);
    if (b.built) process.stdout.write(`built the console into ${relative(process.cwd(), b.dir) || '.'} in ${(b.ms / 1000).toFixed(1)} s\n`);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
