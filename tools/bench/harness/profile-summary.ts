import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { busyPerSecond, type CpuProfile, summarize } from './profile';

/**
 * Reads V8 CPU profiles (`.cpuprofile`, as BENCH_CPU_PROF_DIR makes the benchmarks' processes write them) and
 * prints where each process spent its time: self time by where the code lives (a package under node_modules, a
 * project of the workspace, Node's own internals, garbage collection, idle) and the functions with the most self
 * time.
 *
 *   node tools/scripts/run-ts.cjs tools/bench/harness/profile-summary.ts <dir or file> [--top N] [--skip S] [--until U]
 *
 * `--skip S` leaves out the first S seconds of each profile (the process's start), to see the load alone; `--until U`
 * the samples from U seconds on, to see one phase of a run. `--per-second` prints the busy milliseconds of each
 * second first, to find the phases.
 */

function main(): void {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  const skipAt = args.indexOf('--skip');
  const skipMs = skipAt >= 0 ? Number(args.splice(skipAt, 2)[1]) * 1000 : 0;
  const untilAt = args.indexOf('--until');
  const untilMs = untilAt >= 0 ? Number(args.splice(untilAt, 2)[1]) * 1000 : Infinity;
  const perSecondAt = args.indexOf('--per-second');
  if (perSecondAt >= 0) args.splice(perSecondAt, 1);
  const target = args[0];
  if (!target) throw new Error('usage: profile-summary.ts <dir or .cpuprofile> [--top N] [--skip S] [--until U] [--per-second]');
  const files = target.endsWith('.cpuprofile')
    ? [target]
    : readdirSync(target)
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => join(target, f));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    if (perSecondAt >= 0)
      console.log(
        `\n# ${file}: busy ms per second\n${busyPerSecond(profile)
          .map((ms, s) => `${s}:${Math.round(ms)}`)
          .join(' ')}`,
      );
    const s = summarize(profile, skipMs, untilMs);
    const pct = (ms: number): string => `${((100 * ms) / s.busyMs).toFixed(1)} %`;
    console.log(`\n# ${file}: ${(s.busyMs / 1000).toFixed(2)} s busy of ${(s.totalMs / 1000).toFixed(2)} s`);
    console.log('## busy time by layer (the innermost on the stack)');
    for (const [layer, ms] of s.byLayer) console.log(`${pct(ms).padStart(7)}  ${layer}`);
    console.log('## self time by place (share of busy time)');
    for (const [place, ms] of s.byPlace.filter(([p]) => p !== '(idle)').slice(0, top)) console.log(`${pct(ms).padStart(7)}  ${place}`);
    console.log('## functions with the most self time');
    for (const [fn, ms] of s.byFunction.filter(([f]) => !f.startsWith('(idle)')).slice(0, top)) console.log(`${pct(ms).padStart(7)}  ${fn}`);
  }
}

main();
