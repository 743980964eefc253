import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { Client } from 'pg';
import { databaseUrl } from '@dsar/platform/testing';
import { BENCHMARKS } from './benchmarks';
import { type BuiltOutput, buildProduct } from './harness/build';
import { verdict } from './harness/figures';
import { type RunReport, summaryLines, writeDocs } from './harness/report';
import { settingNames, settingsFor } from './harness/settings';
import { stopAll } from './harness/process';
import { DistributedSystem, type EmbeddedSystem, startEmbedded, stopAllSystems } from './harness/system';
import type { Benchmark, BenchResult, Context } from './harness/types';
import { created, describeError, loadAverage, localKafkaVersion, log, machineFacts, REPO_ROOT } from './harness/util';

/**
 * The benchmark harness (issue [bench]).
 *
 *   npm run bench                          the six benchmarks of issue [bench], catchup (which stops the broker for a
 *                                          minute) and the soak of [throughput], 3 repetitions (about 30 minutes; the
 *                                          catchup and the soak run once);
 *                                          writes tools/bench/results/<date>.json and the generated section of
 *                                          docs/performance.md
 *   npm run bench -- intake reads          only those
 *   npm run bench -- --smoke               every benchmark for seconds (CI): no target judged, no docs written
 *   npm run bench -- --list                the benchmarks
 *
 * Options: --smoke, --repeat N (default 3, smoke 1), --out <file.json>, --write / --no-write (the docs section;
 * default: written by full runs only), --docs <file.md> (another document with the markers), --strict (exit 1
 * when a target is missed), --keep (keep the scratch directory with the processes' logs).
 * Sizes: see harness/settings.ts (BENCH_LOAD_S, BENCH_RELAY_EVENTS, …).
 */

/** A mistake on the command line: its message alone, with the usage. */
class UsageError extends Error {}

interface Args {
  names: string[];
  smoke: boolean;
  repeat?: number;
  out?: string;
  write?: boolean;
  docs: string;
  strict: boolean;
  keep: boolean;
  list: boolean;
}

const USAGE = `usage: npm run bench -- [name ...] [--smoke] [--repeat N] [--out file.json] [--write|--no-write] [--docs file.md] [--strict] [--keep] [--list]`;

function parseArgs(argv: string[]): Args {
  const args: Args = { names: [], smoke: false, docs: join(REPO_ROOT, 'docs/performance.md'), strict: false, keep: false, list: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value\n${USAGE}`);
      return v;
    };
    if (a === '--smoke') args.smoke = true;
    else if (a === '--repeat') {
      args.repeat = Number(value());
      if (!Number.isInteger(args.repeat) || args.repeat < 1) throw new UsageError('--repeat must be a whole number ≥ 1');
    } else if (a === '--out') args.out = resolve(value());
    else if (a === '--write') args.write = true;
    else if (a === '--no-write') args.write = false;
    else if (a === '--docs') args.docs = resolve(value());
    else if (a === '--strict') args.strict = true;
    else if (a === '--keep') args.keep = true;
    else if (a === '--list') args.list = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(`${USAGE}\n\nsizes from the environment: ${settingNames().join(', ')}\n`);
      process.exit(0);
    } else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}\n${USAGE}`);
    else args.names.push(a);
  }
  return args;
}

function select(names: string[]): Benchmark[] {
  if (names.length === 0) return BENCHMARKS.filter((b) => b.inDefault);
  return names.map((n) => {
    const b = BENCHMARKS.find((x) => x.name === n);
    if (!b) throw new UsageError(`no benchmark ${n}; there are: ${BENCHMARKS.map((x) => x.name).join(', ')}`);
    return b;
  });
}

/** PostgreSQL and Kafka up (deploy/local/infra.sh, unless DSAR_INFRA=external), and their addresses in the environment. */
function ensureInfra(): void {
  if (process.env.DSAR_INFRA === 'external') return;
  const script = join(REPO_ROOT, 'deploy/local/infra.sh');
  try {
    execFileSync('bash', [script, 'status'], { cwd: REPO_ROOT, stdio: 'ignore' });
  } catch {
    log('starting the local infrastructure (deploy/local/infra.sh up)');
    execFileSync('bash', [script, 'up'], { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const env = execFileSync('bash', [script, 'env'], { cwd: REPO_ROOT, encoding: 'utf8' });
  for (const line of env.split('\n')) {
    const m = /^export ([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) process.env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
  }
}

async function postgresVersion(): Promise<string> {
  const client = new Client({ connectionString: databaseUrl() });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0].server_version;
  } catch (e) {
    return `unknown (${describeError(e)})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const args = parseArgs(argv);
  if (args.list) {
    for (const b of BENCHMARKS) process.stdout.write(`${b.name.padEnd(12)} ${b.inDefault ? '(default) ' : '(by name) '}${b.summary}\n`);
    return 0;
  }
  const selected = select(args.names);
  const repeat = args.repeat ?? (args.smoke ? 1 : 3);
  const settings = settingsFor(args.smoke);
  const write = args.write ?? !args.smoke;
  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  const date = new Date().toISOString();
  const stamp = date.replace(/[:]/g, '-').replace(/\..*$/, '');
  const out = args.out ?? (args.smoke ? join(os.tmpdir(), `dsar-bench-smoke-${stamp}.json`) : join(REPO_ROOT, 'tools/bench/results', `${stamp}.json`));

  if (selected.some((b) => b.needsInfra)) ensureInfra();
  const machine = { ...machineFacts(), postgres: await postgresVersion(), kafka: localKafkaVersion() ?? 'unknown (not the local broker)' };
  log(`${command}: ${selected.map((b) => b.name).join(', ')}; ${repeat} repetition(s)${args.smoke ? ', smoke' : ''}`);
  log(
    `nproc ${machine.nproc} (${machine.cpu}), ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}, PostgreSQL ${machine.postgres}, Kafka ${machine.kafka}, autocannon ${machine.autocannon}`,
  );

  const scratch = mkdtempSync(join(os.tmpdir(), 'dsar-bench-'));
  const cleanups: (() => Promise<unknown>)[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (cleaning ??= (async () => {
      for (const c of cleanups.reverse()) await c().catch((e: unknown) => log(`cleanup: ${describeError(e)}`));
      // What a benchmark had running when the run was interrupted.
      await stopAllSystems();
      await stopAll();
      if (args.keep) log(`kept ${scratch}`);
      else rmSync(scratch, { recursive: true, force: true });
    })());
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`\n${signal}: stopping the processes and dropping the databases`);
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let shared: Promise<DistributedSystem> | undefined;
  let built: Promise<BuiltOutput> | undefined;
  let sharedEmbedded: Promise<EmbeddedSystem> | undefined;
  let sharedCount = 0;
  const runStart = performance.now();
  const ctx: Context = {
    smoke: args.smoke,
    repeat,
    settings,
    scratch,
    // Progress lines carry the seconds since the start of the run.
    log: (line = '') => log(`${((performance.now() - runStart) / 1000).toFixed(0).padStart(5)} s ${line}`),
    defer: (c) => cleanups.push(c),
    build: () =>
      (built ??= (async () => {
        const b = await buildProduct(join(scratch, 'build'));
        ctx.log(`  built the product to JavaScript: ${b.files} files in ${(b.ms / 1000).toFixed(1)} s`);
        return b;
      })()),
    distributed: () =>
      (shared ??= (async () => {
        const b = args.smoke ? await ctx.build() : undefined;
        ctx.log(`  starting distributed mode (8 processes${b ? ' from the built output' : ''}, fresh database and topics)`);
        const sys = await DistributedSystem.start({ dir: join(scratch, `distributed-${++sharedCount}`), ...(b ? { entry: (s) => b.entry(s), migrate: b.entry('migrate') } : {}) });
        cleanups.push(() => sys.stop());
        ctx.log(`  distributed mode ready in ${(sys.readyMs / 1000).toFixed(1)} s on ${sys.gatewayUrl} (database ${sys.db.name}, topics ${sys.topicPrefix}*)`);
        return sys;
      })()),
    embedded: () =>
      (sharedEmbedded ??= (async () => {
        const b = args.smoke ? await ctx.build() : undefined;
        const e = await startEmbedded(join(scratch, `embedded-${++sharedCount}`), b?.entry('embedded'));
        cleanups.push(() => e.proc.stop());
        ctx.log(`  embedded mode${b ? ' (built output)' : ''} ready in ${(e.readyMs / 1000).toFixed(1)} s on ${e.url}`);
        return e;
      })()),
    releaseShared: async () => {
      const [sys, e] = [shared, sharedEmbedded];
      shared = sharedEmbedded = undefined;
      await Promise.all([sys?.then((x) => x.stop()).catch(() => undefined), e?.then((x) => x.proc.stop()).catch(() => undefined)]);
    },
  };

  const t0 = performance.now();
  const loadBefore = loadAverage();
  const results: BenchResult[] = [];
  try {
    for (const b of selected) {
      log('');
      ctx.log(`== ${b.name}: ${b.summary}`);
      const started = performance.now();
      const before = loadAverage();
      try {
        const m = await b.run(ctx);
        const figures = m.figures.map((f) => ({ ...f, met: args.smoke ? null : verdict(f) }));
        results.push({
          name: b.name,
          title: m.title,
          method: m.method,
          ...(m.repetitions !== undefined ? { repetitions: m.repetitions } : {}),
          figures,
          notes: m.notes ?? [],
          raw: m.raw ?? {},
          wallS: (performance.now() - started) / 1000,
          loadBefore: before,
          loadAfter: loadAverage(),
        });
      } catch (e) {
        ctx.log(`  ${b.name} failed: ${describeError(e)}`);
        results.push({
          name: b.name,
          title: b.name,
          method: b.summary,
          figures: [],
          notes: [],
          raw: {},
          error: e instanceof Error ? (e.stack ?? e.message) : String(e),
          wallS: (performance.now() - started) / 1000,
          loadBefore: before,
          loadAfter: loadAverage(),
        });
      }
    }
  } finally {
    await cleanUp();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }

  const report: RunReport = {
    harness: 'tools/bench',
    formatVersion: 1,
    date,
    command,
    smoke: args.smoke,
    repeat,
    settings,
    machine,
    loadBefore,
    loadAfter: loadAverage(),
    wallS: (performance.now() - t0) / 1000,
    benchmarks: results,
    created,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  log(`\n${summaryLines(report).join('\n')}`);
  log(`\nraw results: ${out}`);
  if (write) {
    const jsonPath = out.startsWith(REPO_ROOT) ? relative(REPO_ROOT, out) : out;
    writeDocs(
      args.docs,
      report,
      jsonPath,
      BENCHMARKS.map((b) => b.name),
    );
    log(`updated the generated section of ${args.docs}`);
  }
  const failed = results.filter((r) => r.error).length;
  const missed = args.smoke ? 0 : results.flatMap((r) => r.figures).filter((f) => f.met === false).length;
  log(`${results.length - failed} of ${results.length} benchmarks ran${args.smoke ? '' : `; ${missed} target(s) missed`}; ${(report.wallS / 60).toFixed(1)} min`);
  return failed > 0 || (args.strict && missed > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof UsageError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(e instanceof UsageError ? 64 : 1);
  },
);
