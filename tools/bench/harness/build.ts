import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './util';

/**
 * The product as built JavaScript, for the footprint benchmark ("when started from the built output") and the smoke
 * run's shared systems: `npm run build` (tools/scripts/build.ts, what the image runs, ADR 0030) into the run's
 * scratch directory, run as its own process, exactly as the command runs it.
 */

export interface BuiltOutput {
  dir: string;
  files: number;
  ms: number;
  /** The built entry of a service (apps/<name>/src/main.js), of embedded mode (`embedded`) or of the migrations (`migrate`). */
  entry(app: string): string;
}

export async function buildProduct(outDir: string): Promise<BuiltOutput> {
  const t0 = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/scripts/build.ts', outDir], { cwd: REPO_ROOT, timeout: 300_000 });
  const files = Number(/built (\d+) modules/.exec(stdout)?.[1] ?? NaN);
  return { dir: outDir, files, ms: performance.now() - t0, entry: (app) => builtEntry(outDir, app) };
}

/** The built entry of a service, of embedded mode (`embedded`) or of the migrations (`migrate`): the build keeps the sources' layout. */
function builtEntry(outDir: string, app: string): string {
  const source = app === 'embedded' ? 'tools/embedded/src/main' : app === 'migrate' ? 'tools/embedded/src/migrate' : `apps/${app}/src/main`;
  return join(outDir, `${source}.js`);
}
