import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { atMost, figure } from '../harness/figures';
import type { Benchmark, Figure } from '../harness/types';
import { median, REPO_ROOT } from '../harness/util';

/**
 * cli: how long a `dsar` command takes from the shell's point of view, process start to exit, for `--version`,
 * `--help` (every command module loaded) and `requests list` (one real call to embedded mode, no stub). Each is
 * timed from a warm start (the CLI's compiled sources cached, as every run after the first) and from a fresh start
 * (an empty cache: the first run after a clone or an edit compiles what it loads); the floor is a bare `node -e 0`.
 * `npx dsar --version` is timed beside them for what npm adds. Runs by name only: `npm run bench -- cli`.
 */

const BIN = join(REPO_ROOT, 'apps/dsar/bin/dsar.cjs');

/** Wall time of one run of `node args…`, in seconds; fails when it does not exit 0. */
function timed(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    execFile(command, args, { cwd: REPO_ROOT, env, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error) fail(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stderr}`));
      else ok((performance.now() - t0) / 1000);
    });
  });
}

interface Case {
  key: string;
  label: string;
  args: string[];
}

export const cli: Benchmark = {
  name: 'cli',
  summary: 'dsar CLI start to exit: --version, --help, requests list against embedded mode; warm and fresh starts',
  inDefault: false,
  needsInfra: false,
  async run(ctx) {
    const embedded = await ctx.embedded();
    const runs = ctx.smoke ? 2 : 10;
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', DSAR_BASE_URL: `${embedded.url}/api/v1`, DSAR_TOKEN: embedded.keys['bench-reads'] };
    const warmCache = join(ctx.scratch, 'cli-cache-warm');
    const cases: Case[] = [
      { key: 'version', label: '`dsar --version`', args: ['--version'] },
      { key: 'help', label: '`dsar --help`', args: ['--help'] },
      { key: 'list', label: '`dsar requests list -o json` (one call to embedded mode)', args: ['requests', 'list', '--limit', '5', '-o', 'json'] },
    ];
    // Fills the warm cache (and checks that every case runs).
    for (const c of cases) await timed(process.execPath, [BIN, ...c.args], { ...env, DSAR_CLI_CACHE_DIR: warmCache });

    const samples = new Map<string, number[]>();
    const of = (key: string): number[] => samples.get(key) ?? [];
    const add = (key: string, value: number): void => {
      samples.set(key, [...of(key), value]);
    };
    const last = (key: string): string => `${(of(key).at(-1) ?? NaN).toFixed(3)} s`;
    let fresh = 0;
    for (let rep = 0; rep < ctx.repeat; rep++) {
      const floor: number[] = [];
      for (let i = 0; i < runs; i++) floor.push(await timed(process.execPath, ['-e', '0'], env));
      add('floor', median(floor));
      for (const c of cases) {
        const warm: number[] = [];
        const cold: number[] = [];
        for (let i = 0; i < runs; i++) {
          warm.push(await timed(process.execPath, [BIN, ...c.args], { ...env, DSAR_CLI_CACHE_DIR: warmCache }));
          const empty = join(ctx.scratch, `cli-cache-fresh-${fresh++}`);
          mkdirSync(empty);
          cold.push(await timed(process.execPath, [BIN, ...c.args], { ...env, DSAR_CLI_CACHE_DIR: empty }));
        }
        add(`warm.${c.key}`, median(warm));
        add(`fresh.${c.key}`, median(cold));
      }
      const npx: number[] = [];
      for (let i = 0; i < Math.min(runs, 5); i++) npx.push(await timed('npx', ['--no-install', 'dsar', '--version'], { ...env, DSAR_CLI_CACHE_DIR: warmCache }));
      add('npx.version', median(npx));
      ctx.log(`    rep ${rep + 1}: ${cases.map((c) => `${c.key} ${last(`warm.${c.key}`)} warm, ${last(`fresh.${c.key}`)} fresh`).join('; ')}; node -e 0 ${last('floor')}`);
    }

    const floor = { label: '`node -e 0`', samples: of('floor') };
    const figures: Figure[] = [];
    for (const c of cases) {
      figures.push(figure(`warm.${c.key}`, `${c.label}, warm start`, 's', of(`warm.${c.key}`), { floor, ...(c.key === 'version' ? {} : { target: atMost(0.5, 's') }) }));
    }
    for (const c of cases) figures.push(figure(`fresh.${c.key}`, `${c.label}, fresh start (empty cache: compiles what it loads)`, 's', of(`fresh.${c.key}`), { floor }));
    figures.push(figure('npx.version', '`npx dsar --version`, warm start (npm adds its own start)', 's', of('npx.version'), { floor }));
    return {
      title: 'cli — `dsar` from process start to exit',
      figures,
      method:
        `\`node apps/dsar/bin/dsar.cjs …\` (what \`npx dsar\` and the package's bin run) timed from spawn to exit, ${runs} runs per figure and repetition (the median), against the shared embedded mode for \`requests list\`. ` +
        "Warm: the CLI's sources compiled by an earlier run (node_modules/.cache/dsar-cli; here a scratch DSAR_CLI_CACHE_DIR). Fresh: an empty cache each run, as the first command after a clone or an edit. " +
        'Floor: `node -e 0`, the start of Node itself on this machine.',
      raw: Object.fromEntries(samples),
    };
  },
};
