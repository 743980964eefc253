import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import type { DataSource, QueryRunner } from 'typeorm';
import { createTestDatabase } from '@dsar/platform/testing';

/** What the benchmarks share: knobs, percentiles, output, the machine's facts, statement timing and a throw-away database. */

/** A whole-number knob from the environment. */
export function benchEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, got ${raw}`);
  return n;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

export function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Runs a benchmark's main and exits: 0 when it resolves, 1 with the error on stderr when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}

/** CPU, memory, OS, Node and PostgreSQL, the server settings that matter to the benchmark, and the load it ran under. */
export async function printMachine(ds: DataSource, settingNames: readonly string[]): Promise<void> {
  const [{ version }] = await ds.query('SELECT version()');
  const settings: { name: string; value: string }[] = await ds.query(`SELECT name, current_setting(name) AS value FROM pg_settings WHERE name = ANY($1) ORDER BY name`, [settingNames]);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    /* nproc is coreutils; os.availableParallelism() is the same figure */
  }
  log(`nproc ${nproc} (${cpu}), memory ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`);
  log(version);
  log(settings.map((s) => `${s.name}=${s.value}`).join(', '));
  log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (the machine is shared: other processes add noise)`,
  );
}

export async function explain(ds: DataSource, q: { sql: string; params: unknown[] }): Promise<string[]> {
  const plan: { 'QUERY PLAN': string }[] = await ds.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, q.params);
  return plan.map((l) => l['QUERY PLAN']);
}

export interface Statement {
  sql: string;
  params: unknown[];
  ms: number;
}

export interface StatementRecorder {
  /** The statements recorded since the last take(). */
  take(): Statement[];
  /** Puts createQueryRunner back as it was. */
  stop(): void;
}

/**
 * Times every statement sent through the DataSource's query runners (a unit
 * of work's transaction and DataSource.query() alike), where TypeORM sends
 * it: the time waiting on PostgreSQL, apart from the time spent in Node.
 */
export function recordStatements(ds: DataSource): StatementRecorder {
  let recorded: Statement[] = [];
  const create = ds.createQueryRunner;
  ds.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>): QueryRunner => {
    const qr = create.apply(ds, args);
    const query = qr.query.bind(qr) as (sql: string, params?: unknown[], structured?: boolean) => Promise<unknown>;
    const timed = async (sql: string, params?: unknown[], structured?: boolean): Promise<unknown> => {
      const t0 = process.hrtime.bigint();
      try {
        return await query(sql, params, structured);
      } finally {
        recorded.push({ sql, params: params ?? [], ms: Number(process.hrtime.bigint() - t0) / 1e6 });
      }
    };
    qr.query = timed as QueryRunner['query'];
    return qr;
  };
  return {
    take: () => {
      const out = recorded;
      recorded = [];
      return out;
    },
    stop: () => {
      ds.createQueryRunner = create;
    },
  };
}

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * Runs a benchmark on a fresh database that is dropped at the end, on
 * failure and on Ctrl-C too. `closeBeforeDrop` registers what holds
 * connections to it (a DataSource, a hosted service); it is closed first.
 */
export async function onThrowawayDatabase(work: (db: TestDatabase, closeBeforeDrop: (close: () => Promise<unknown>) => void) => Promise<void>): Promise<void> {
  const db = await createTestDatabase();
  const closers: (() => Promise<unknown>)[] = [];
  // One teardown, however many callers (the finally block and a signal): each waits for the same one.
  let dropping: Promise<void> | undefined;
  const drop = (): Promise<void> =>
    (dropping ??= (async () => {
      for (const close of closers) await close().catch(() => undefined);
      await db.drop();
      log(`dropped database ${db.name}`);
    })());
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`\n${signal}: dropping ${db.name}`);
    drop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`database ${db.name}`);
    await work(db, (close) => closers.push(close));
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await drop();
  }
}
