import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './util';

/**
 * Reads V8 CPU profiles (`.cpuprofile`, as BENCH_CPU_PROF_DIR makes the benchmarks' processes write them) and
 * prints where each process spent its time: self time by where the code lives (a package under node_modules, a
 * project of the workspace, Node's own internals, garbage collection, idle) and the functions with the most self
 * time.
 *
 *   node tools/scripts/run-ts.cjs tools/bench/harness/profile-summary.ts <dir or file> [--top N] [--skip S]
 *
 * `--skip S` leaves out the first S seconds of each profile (the process's start), to see the load alone.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: `pkg:<name>`, `app:<path of its project>`, `node:<module>`, or V8's own entries. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : `(${functionName || 'anonymous'})`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = path.slice(nm + 'node_modules/'.length).split('/');
    return `pkg:${parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const rel = relative(REPO_ROOT, path).split('/');
  const project = rel[0] === 'libs' && rel[1] === 'services' ? rel.slice(0, 3) : rel.slice(0, 2);
  return `app:${project.join('/')}`;
}

interface ProfileSummary {
  totalMs: number;
  /** Time not idle (program, GC and everything else). */
  busyMs: number;
  byPlace: [string, number][];
  byFunction: [string, number][];
}

/** Self time per node, of the samples taken `skipMs` or more after the profile began (start-up left out). */
function summarize(profile: CpuProfile, skipMs: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let elapsedMs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    elapsedMs += ms;
    if (elapsedMs >= skipMs) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + ms);
  }
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id) as ProfileNode;
    totalMs += ms;
    if (callFrame.functionName === '(idle)') idleMs += ms;
    const place = placeOf(callFrame.url, callFrame.functionName);
    places.set(place, (places.get(place) ?? 0) + ms);
    const fn = `${callFrame.functionName || '(anonymous)'} ${callFrame.url ? `${relative(REPO_ROOT, callFrame.url.replace(/^file:\/\//, ''))}:${callFrame.lineNumber + 1}` : ''}`.trim();
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const sorted = (m: Map<string, number>): [string, number][] => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return { totalMs, busyMs: totalMs - idleMs, byPlace: sorted(places), byFunction: sorted(functions) };
}

function main(): void {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
  const skipAt = args.indexOf('--skip');
  const skipMs = skipAt >= 0 ? Number(args.splice(skipAt, 2)[1]) * 1000 : 0;
  const target = args[0];
  if (!target) throw new Error('usage: profile-summary.ts <dir or .cpuprofile> [--top N] [--skip S]');
  const files = target.endsWith('.cpuprofile') ? [target] : readdirSync(target).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(target, f));
  for (const file of files) {
    const s = summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, skipMs);
    const pct = (ms: number): string => `${((100 * ms) / s.busyMs).toFixed(1)} %`;
    console.log(`\n# ${file}: ${(s.busyMs / 1000).toFixed(2)} s busy of ${(s.totalMs / 1000).toFixed(2)} s`);
    console.log('## self time by place (share of busy time)');
    for (const [place, ms] of s.byPlace.filter(([p]) => p !== '(idle)').slice(0, top)) console.log(`${pct(ms).padStart(7)}  ${place}`);
    console.log('## functions with the most self time');
    for (const [fn, ms] of s.byFunction.filter(([f]) => !f.startsWith('(idle)')).slice(0, top)) console.log(`${pct(ms).padStart(7)}  ${fn}`);
  }
}

main();
