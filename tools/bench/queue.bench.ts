import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { OPEN_STATUSES, type QueueQuery } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { idempotencyMigrations } from '@dsar/platform/idempotency';
import { messagingMigrations } from '@dsar/platform/messaging';
import { dataSourceOptions, openDataSource, schemaNameFor, UnitOfWork } from '@dsar/platform/persistence';
import { lifecycleClockService } from '@dsar/services/lifecycle-clock';
import { benchEnv, explain, fmt, log, onThrowawayDatabase, percentile, printMachine } from './bench-kit';
import { accessPaths, bulkSession, type QueuePager, type Recorded, recordQueueStatements, requestQueueClass, requestsLoadSql } from './lifecycle-clock-kit';
import type { TriggerTimes, WriteCosts } from './queue-writes';

/**
 * The request queue (`GET /api/v1/requests`) at a million requests per tenant.
 *
 *   node tools/scripts/run-ts.cjs tools/bench/queue.bench.ts
 *
 * Creates a throw-away database on the PostgreSQL of DATABASE_URL, applies
 * lifecycle-clock's real migrations (with the messaging and idempotency ones,
 * as the service host does), loads BENCH_TENANT_ROWS requests for one tenant
 * and BENCH_OTHER_ROWS over other tenants with one INSERT … SELECT, VACUUM
 * ANALYZEs, then times every queue shape through the real `RequestQueue.page()`
 * (the page SELECT, and the statements of its total: the request counters,
 * and for the at-risk filter the capped counts and the planner's estimate).
 * Then what the counters' triggers cost the writes: a bulk INSERT … SELECT
 * with them and without, the rebuild, and the trigger's own time in single-row
 * INSERTs and UPDATEs (EXPLAIN ANALYZE). The database is dropped at the end,
 * on failure and on Ctrl-C too.
 *
 * Environment: BENCH_TENANT_ROWS (1000000), BENCH_OTHER_ROWS (200000),
 * BENCH_OTHER_TENANTS (50), BENCH_ITERATIONS (30), BENCH_WARMUP (5),
 * BENCH_VACUUM (1; 0 = ANALYZE only and autovacuum off on the table, i.e. a
 * visibility map that is still empty, as right after a bulk load),
 * BENCH_WRITE_ROWS (100000; the bulk insert of the write costs, half with the
 * triggers and half without), BENCH_WRITE_STATEMENTS (200 single-row INSERTs
 * and as many UPDATEs of each kind).
 *
 * For the harness (`npm run bench -- queue`, tools/bench/benchmarks/queue.ts):
 * BENCH_REPEAT (1) runs the measured rounds that many times on the same data,
 * and BENCH_JSON=<file> writes every run's figures per shape there, with the
 * total each shape should have, counted by plain SQL beside RequestQueue, and
 * the write costs.
 */

const env = benchEnv;

const TENANT_ROWS = env('BENCH_TENANT_ROWS', 1_000_000);
const OTHER_ROWS = env('BENCH_OTHER_ROWS', 200_000);
const OTHER_TENANTS = Math.max(1, env('BENCH_OTHER_TENANTS', 50));
const ITERATIONS = Math.max(20, env('BENCH_ITERATIONS', 30));
const WARMUP = env('BENCH_WARMUP', 5);
const VACUUM = env('BENCH_VACUUM', 1) !== 0;
const REPEAT = Math.max(1, env('BENCH_REPEAT', 1));
const JSON_OUT = process.env.BENCH_JSON;
const WRITE_ROWS = Math.max(4, env('BENCH_WRITE_ROWS', 100_000));
const WRITE_STATEMENTS = Math.max(20, env('BENCH_WRITE_STATEMENTS', 200));

const SCHEMA = schemaNameFor(lifecycleClockService.name);
const TABLE = `"${SCHEMA}"."requests"`;
const COUNTS = `"${SCHEMA}"."request_counts"`;
const BIG_TENANT = 'bench-big';
/** The tenant of the write costs, loaded after every queue figure is taken. */
const WRITES_TENANT = 'bench-writes';
const SMALL_TENANT = 'bench-other-007';

/** The cap of the capped-count alternative ("10000+" beyond it). */
const CAP = 10_000;

// ---------------------------------------------------------------------------------------------
// Data (the loader is lifecycle-clock-kit.ts's, shared with the identity benchmark)

/** Loads the data; returns the seconds the INSERT … SELECT took (the counters' trigger included). */
async function load(ds: DataSource): Promise<number> {
  const qr = ds.createQueryRunner();
  let loadS: number;
  try {
    await bulkSession(qr);
    let t = Date.now();
    await qr.query(requestsLoadSql(TABLE), [TENANT_ROWS, OTHER_ROWS, OTHER_TENANTS, BIG_TENANT]);
    loadS = (Date.now() - t) / 1000;
    log(`  INSERT … SELECT … generate_series: ${TENANT_ROWS + OTHER_ROWS} rows in ${loadS.toFixed(1)} s (the request counters' trigger included)`);
    t = Date.now();
    if (VACUUM) {
      await qr.query(`VACUUM (ANALYZE) ${TABLE}`);
      await qr.query(`VACUUM (ANALYZE) ${COUNTS}`);
      log(`  VACUUM (ANALYZE): ${((Date.now() - t) / 1000).toFixed(1)} s`);
    } else {
      // Keep autovacuum from setting the visibility map in the middle of the run.
      await qr.query(`ALTER TABLE ${TABLE} SET (autovacuum_enabled = false)`);
      await qr.query(`ANALYZE ${TABLE}`);
      await qr.query(`ANALYZE ${COUNTS}`);
      log(`  ANALYZE (no VACUUM, autovacuum off on the table): ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    await qr.release();
  }
  const [size] = await ds.query(`SELECT pg_size_pretty(pg_table_size($1)) AS heap, pg_size_pretty(pg_indexes_size($1)) AS indexes`, [`${SCHEMA}.requests`]);
  log(`  table ${size.heap}, indexes ${size.indexes}`);
  const mix = await ds.query(
    `SELECT count(*)::int AS n,
            count(*) FILTER (WHERE status IN ('received','in_progress','clarification_pending','verification_pending'))::int AS open,
            count(*) FILTER (WHERE status IN ('received','in_progress','clarification_pending','verification_pending') AND due_at < now())::int AS overdue,
            count(*) FILTER (WHERE workspace_id IS NULL)::int AS no_workspace
       FROM ${TABLE} WHERE tenant_id = $1`,
    [BIG_TENANT],
  );
  log(`  ${BIG_TENANT}: ${mix[0].n} requests, ${mix[0].open} open (${mix[0].overdue} of them overdue), ${mix[0].no_workspace} without workspace`);
  const [counters] = await ds.query(`SELECT count(*)::int AS n, pg_size_pretty(pg_total_relation_size($1)) AS size FROM ${COUNTS}`, [`${SCHEMA}.request_counts`]);
  log(`  request_counts: ${counters.n} rows, ${counters.size}`);
  return loadS;
}

// ---------------------------------------------------------------------------------------------
// Measurement

interface Shape {
  name: string;
  scope: TenantScope;
  query: QueueQuery;
  explain?: boolean;
  /** Also time, for its filter, the exact COUNT the queue used to send, the planner's row estimate and a capped count (the alternatives table). */
  estimate?: boolean;
}

const big: TenantScope = { tenantId: BIG_TENANT };
const SHAPES: Shape[] = [
  { name: 'default (receivedAt desc, limit 25)', scope: big, query: {}, explain: true, estimate: true },
  { name: 'sortBy=dueAt asc', scope: big, query: { sortBy: 'dueAt', sortOrder: 'asc' } },
  { name: 'status=clarification_pending,verification_pending', scope: big, query: { status: ['clarification_pending', 'verification_pending'] }, estimate: true },
  { name: 'atRiskDays=7', scope: big, query: { atRiskDays: 7 }, explain: true, estimate: true },
  { name: 'atRiskDays=7, sortBy=dueAt asc', scope: big, query: { atRiskDays: 7, sortBy: 'dueAt', sortOrder: 'asc' } },
  { name: 'sortBy=status (desc)', scope: big, query: { sortBy: 'status' }, explain: true },
  { name: 'sortBy=updatedAt (desc)', scope: big, query: { sortBy: 'updatedAt' } },
  { name: 'deep page (offset 10000)', scope: big, query: { offset: 10_000 } },
  { name: 'workspace-confined caller (ws-03)', scope: { tenantId: BIG_TENANT, workspaceId: 'ws-03' }, query: {}, estimate: true },
  { name: `control: small tenant (${Math.round(OTHER_ROWS / OTHER_TENANTS)} rows), default`, scope: { tenantId: SMALL_TENANT }, query: {} },
];

interface Result {
  shape: Shape;
  total: number;
  totalExact: boolean;
  rows: number;
  page: number[];
  select: number[];
  /** The time of the total's statements, and their share of the call (the at-risk total runs beside the page SELECT). */
  totalMs: number[];
  totalShare: number[];
  last: Recorded[];
}

/**
 * Warm-up rounds, then ITERATIONS rounds; every round calls every shape once,
 * so a burst of load from elsewhere on the machine spreads over all shapes
 * instead of skewing one.
 */
async function measureAll(queue: QueuePager, recorder: { take(): Recorded[] }, shapes: Shape[], now: Date): Promise<Result[]> {
  const results: Result[] = shapes.map((shape) => ({ shape, total: 0, totalExact: true, rows: 0, page: [], select: [], totalMs: [], totalShare: [], last: [] }));
  const call = async (r: Result, keep: boolean): Promise<void> => {
    recorder.take();
    const t0 = process.hrtime.bigint();
    const slice = await queue.page(r.shape.scope, r.shape.query, now);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const queries = recorder.take();
    if (!keep) return;
    const select = queries.filter((q) => q.kind === 'select').reduce((s, q) => s + q.ms, 0);
    const total = queries.filter((q) => q.kind === 'total').reduce((s, q) => s + q.ms, 0);
    r.page.push(ms);
    r.select.push(select);
    r.totalMs.push(total);
    r.totalShare.push(total / ms);
    r.total = slice.total;
    r.totalExact = slice.totalExact;
    r.rows = slice.rows.length;
    r.last = queries;
  };
  for (let i = 0; i < WARMUP; i++) for (const r of results) await call(r, false);
  for (let i = 0; i < ITERATIONS; i++) for (const r of results) await call(r, true);
  return results;
}

// ---------------------------------------------------------------------------------------------
// For the harness: the total each shape should have, and the figures as JSON.

/** The number of rows a shape matches, counted by plain SQL with the filters the queue documents. */
async function expectedTotal(ds: DataSource, shape: Shape, now: Date): Promise<number> {
  const known = new Set(['status', 'atRiskDays', 'sortBy', 'sortOrder', 'offset', 'limit']);
  const unknown = Object.keys(shape.query).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new Error(`expectedTotal does not know the filter(s) ${unknown.join(', ')}`);
  const params: unknown[] = [shape.scope.tenantId];
  const where = ['tenant_id = $1'];
  if (shape.scope.workspaceId) {
    params.push(shape.scope.workspaceId);
    where.push(`workspace_id = $${params.length}`);
  }
  if (shape.query.status) {
    params.push(shape.query.status);
    where.push(`status = ANY($${params.length}::text[])`);
  }
  if (shape.query.atRiskDays !== undefined) {
    params.push([...OPEN_STATUSES]);
    where.push(`status = ANY($${params.length}::text[])`);
    params.push(new Date(now.getTime() + shape.query.atRiskDays * 86_400_000));
    where.push(`due_at <= $${params.length}`);
  }
  const [row] = await ds.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE ${where.join(' AND ')}`, params);
  return row.n;
}

/** Per shape and repetition, what the harness judges. */
function runFigures(r: Result) {
  return {
    total: r.total,
    totalExact: r.totalExact,
    rows: r.rows,
    p50: percentile(r.page, 0.5),
    p95: percentile(r.page, 0.95),
    selectP50: percentile(r.select, 0.5),
    totalP50: percentile(r.totalMs, 0.5),
    samples: r.page,
  };
}

/** The run's figures (BENCH_REPEAT runs of the measured rounds), the expected totals, the load and the write costs, to `path`. */
function writeJson(path: string, runs: Result[][], expected: Map<Shape, number>, loadS: number, writes: WriteCosts): void {
  const shapes = SHAPES.map((shape) => ({
    name: shape.name,
    expectedTotal: expected.get(shape),
    runs: runs.map((results) => runFigures(results.find((x) => x.shape === shape) as Result)),
  }));
  const data = { tenantRows: TENANT_ROWS, otherRows: OTHER_ROWS, otherTenants: OTHER_TENANTS, iterations: ITERATIONS, warmup: WARMUP, vacuum: VACUUM, repeat: REPEAT, loadS, writes, shapes };
  writeFileSync(path, JSON.stringify(data));
}

/** Says which totals differ from the rows that match: an exact one by any, an estimate by its relative error. */
function checkTotals(runs: Result[][], expected: Map<Shape, number>): void {
  for (const shape of SHAPES) {
    const want = expected.get(shape) as number;
    const got = runs.map((results) => results.find((x) => x.shape === shape) as Result);
    if (got.some((r) => r.totalExact && r.total !== want)) log(`  ${shape.name}: total ${got.map((r) => r.total).join('/')} but ${want} rows match`);
    for (const r of got.filter((x) => !x.totalExact)) {
      log(`  ${shape.name}: total ${r.total} is an estimate (totalExact false), ${want} rows match: ${((100 * (r.total - want)) / want).toFixed(2)} %`);
    }
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  await onThrowawayDatabase(async (db, closeBeforeDrop) => {
    const ds = await openDataSource(
      await dataSourceOptions({
        driver: 'postgres',
        url: db.url,
        dataDir: '',
        poolSize: 4,
        schema: SCHEMA,
        entities: lifecycleClockService.entities ?? [],
        migrations: [...messagingMigrations, ...idempotencyMigrations, ...(lifecycleClockService.migrations ?? [])],
        applicationName: 'dsar-bench-queue',
      }),
      'run',
    );
    closeBeforeDrop(() => ds.destroy());
    await printMachine(ds, ['shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost', 'jit', 'max_parallel_workers_per_gather']);

    log(`\nloading ${TENANT_ROWS} requests for ${BIG_TENANT} and ${OTHER_ROWS} over ${OTHER_TENANTS} other tenants`);
    const loadS = await load(ds);

    const recorder = recordQueueStatements(ds);
    const queue = new (requestQueueClass())(new UnitOfWork(ds));
    const now = new Date();

    log(`\ntiming RequestQueue.page(): ${WARMUP} warm-up + ${ITERATIONS} measured rounds, each round calls every shape once`);
    const results = await measureAll(queue, recorder, SHAPES, now);
    for (const r of results) log(`  ${r.shape.name}: p50 ${fmt(percentile(r.page, 0.5))} ms, p95 ${fmt(percentile(r.page, 0.95))} ms (total ${r.total}${r.totalExact ? '' : ', an estimate'})`);
    const runs = [results];
    if (JSON_OUT) {
      for (let i = 1; i < REPEAT; i++) {
        log(`  repetition ${i + 1} of ${REPEAT}`);
        runs.push(await measureAll(queue, recorder, SHAPES, now));
      }
    }
    const expected = new Map<Shape, number>();
    for (const shape of SHAPES) expected.set(shape, await expectedTotal(ds, shape, now));
    checkTotals(runs, expected);

    // EXPLAIN ANALYZE times every row it passes; on plans that visit a million rows that inflates the
    // Execution Time well above the real one, so the timings to read are page()'s; the plans say which index.
    log('\nEXPLAIN (ANALYZE, BUFFERS) of the SQL page() sent (last measured call), per shape');
    const plans = new Map<Shape, { select: string[]; total: string[] }>();
    for (const r of results) {
      const select = r.last.find((q) => q.kind === 'select');
      const total = totalStatementOf(r);
      plans.set(r.shape, { select: select ? await explain(ds, select) : [], total: total ? await explain(ds, total) : [] });
    }

    log('\n| Shape | total | exact? | p50 ms | p95 ms | page SELECT p50 | total p50 | total share (p50) | SELECT plan | total plan |');
    log('|---|---:|---|---:|---:|---:|---:|---:|---|---|');
    for (const r of results) {
      const p = plans.get(r.shape) ?? { select: [], total: [] };
      log(
        `| ${r.shape.name} | ${r.total} | ${r.totalExact ? 'yes' : 'estimate'} | ${fmt(percentile(r.page, 0.5))} | ${fmt(percentile(r.page, 0.95))} | ${fmt(percentile(r.select, 0.5))} | ` +
          `${fmt(percentile(r.totalMs, 0.5))} | ${(percentile(r.totalShare, 0.5) * 100).toFixed(0)} % | ${accessPaths(p.select)} | ${accessPaths(p.total)} |`,
      );
    }
    log('↑ = backward index scan. The at-risk total runs on a second connection beside the page SELECT: its share may pass 100 % less the SELECT.');

    for (const r of results.filter((x) => x.shape.explain)) {
      const p = plans.get(r.shape);
      if (!p) continue;
      log(`\n--- ${r.shape.name}: page SELECT`);
      log(r.last.find((q) => q.kind === 'select')?.sql.replace(/\s+/g, ' ') ?? '');
      for (const line of p.select) log(`  ${line}`);
      log(`--- ${r.shape.name}: total`);
      for (const q of r.last.filter((x) => x.kind === 'total')) log(q.sql.replace(/\s+/g, ' '));
      for (const line of p.total) log(`  ${line}`);
    }

    await alternatives(ds, results);
    const writes = await writeCosts(ds);
    if (JSON_OUT) writeJson(JSON_OUT, runs, expected, loadS, writes);
  });
}

/** The first statement of a call's total that is not itself an EXPLAIN: the counters, or the at-risk counts. */
function totalStatementOf(r: Result): Recorded | undefined {
  return r.last.find((q) => q.kind === 'total' && !/^\s*EXPLAIN/.test(q.sql));
}

async function timeIt(fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    out.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return out;
}

/**
 * What the total cost before the counters and what the other remedies would
 * cost on the same data, in raw SQL (not through RequestQueue): the exact
 * COUNT of the matching rows (what getManyAndCount sent), the planner's row
 * estimate or a capped count instead, and a keyset (seek) page instead of
 * OFFSET.
 */
async function alternatives(ds: DataSource, results: Result[]): Promise<void> {
  log('\nalternatives, raw SQL on the same data (not RequestQueue)');
  log('| Alternative | result | p50 ms | p95 ms |');
  log('|---|---:|---:|---:|');
  for (const r of results.filter((x) => x.shape.estimate)) {
    const select = r.last.find((q) => q.kind === 'select');
    // The page SELECT's FROM and WHERE: the rows the filters match.
    const matching = select ? / FROM (.+?) ORDER BY /s.exec(select.sql)?.[1] : undefined;
    if (!select || !matching) continue;
    let exact = 0;
    const exactTimes = await timeIt(async () => {
      const [row] = await ds.query(`SELECT count(*)::int AS n FROM ${matching}`, select.params);
      exact = row.n;
    });
    log(`| exact COUNT of the matching rows (the total before the counters), ${r.shape.name} | ${exact} | ${fmt(percentile(exactTimes, 0.5))} | ${fmt(percentile(exactTimes, 0.95))} |`);
    let estimate = 0;
    const times = await timeIt(async () => {
      const [row] = await ds.query(`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${matching}`, select.params);
      estimate = Number(row['QUERY PLAN'][0].Plan['Plan Rows']);
    });
    log(`| planner estimate instead of COUNT, ${r.shape.name} | ${estimate} (exact ${exact}) | ${fmt(percentile(times, 0.5))} | ${fmt(percentile(times, 0.95))} |`);
    let capped = 0;
    const cappedTimes = await timeIt(async () => {
      const [row] = await ds.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${matching} LIMIT ${CAP + 1}) capped`, select.params);
      capped = row.n;
    });
    const cappedResult = capped > CAP ? `${CAP}+` : String(capped);
    log(`| COUNT capped at ${CAP + 1} rows, ${r.shape.name} | ${cappedResult} | ${fmt(percentile(cappedTimes, 0.5))} | ${fmt(percentile(cappedTimes, 0.95))} |`);
  }

  const [cursor] = await ds.query(`SELECT received_at::text AS received_at, id FROM ${TABLE} WHERE tenant_id = $1 ORDER BY received_at DESC, id DESC OFFSET 9999 LIMIT 1`, [BIG_TENANT]);
  const keysetSql = `SELECT * FROM ${TABLE} r WHERE r.tenant_id = $1 AND (r.received_at, r.id) < ($2::timestamptz, $3::uuid)
                     ORDER BY r.received_at DESC, r.id DESC LIMIT 25`;
  let keysetRows = 0;
  const keyset = await timeIt(async () => {
    keysetRows = (await ds.query(keysetSql, [BIG_TENANT, cursor.received_at, cursor.id])).length;
  });
  log(`| keyset page after row 10000 (receivedAt desc), instead of offset 10000 | ${keysetRows} rows | ${fmt(percentile(keyset, 0.5))} | ${fmt(percentile(keyset, 0.95))} |`);
  for (const line of await explain(ds, { sql: keysetSql, params: [BIG_TENANT, cursor.received_at, cursor.id] })) log(`  ${line}`);
}

// ---------------------------------------------------------------------------------------------
// What the counters cost the writes

/**
 * The counters' cost to writers. A bulk INSERT … SELECT for another tenant in
 * four alternating parts, with the insert trigger and with it disabled (the
 * counters then rebuilt, as docs/operations.md tells a bulk load to); and the
 * trigger's own time in single-row statements like the product's, from
 * EXPLAIN (ANALYZE) inside one transaction that is rolled back.
 */
async function writeCosts(ds: DataSource): Promise<WriteCosts> {
  log(`\nwrite costs of the request counters (tenant ${WRITES_TENANT}, after every queue figure)`);
  const qr = ds.createQueryRunner();
  try {
    await bulkSession(qr);
    const part = Math.floor(WRITE_ROWS / 4);
    const seconds = { on: 0, off: 0 };
    for (const mode of ['on', 'off', 'on', 'off'] as const) {
      if (mode === 'off') await qr.query(`ALTER TABLE ${TABLE} DISABLE TRIGGER request_counts_insert`);
      const t = process.hrtime.bigint();
      await qr.query(requestsLoadSql(TABLE), [part, 0, 1, WRITES_TENANT]);
      seconds[mode] += Number(process.hrtime.bigint() - t) / 1e9;
      if (mode === 'off') await qr.query(`ALTER TABLE ${TABLE} ENABLE TRIGGER request_counts_insert`);
    }
    log(`  bulk INSERT … SELECT of ${2 * part} rows with the counters' trigger: ${seconds.on.toFixed(2)} s; ${2 * part} rows without: ${seconds.off.toFixed(2)} s`);
    const t = process.hrtime.bigint();
    const [rebuilt] = await qr.query(`SELECT "${SCHEMA}".request_counts_rebuild() AS n`);
    const rebuildS = Number(process.hrtime.bigint() - t) / 1e9;
    log(`  request_counts_rebuild() over ${rebuilt.n} requests: ${rebuildS.toFixed(2)} s`);

    const n = WRITE_STATEMENTS;
    const warm = 20;
    const ids: string[] = (await qr.query(`SELECT id FROM ${TABLE} WHERE tenant_id = $1 AND status = 'received' LIMIT $2`, [BIG_TENANT, 2 * (n + warm)])).map((r: { id: string }) => r.id);
    if (ids.length < 2 * (n + warm)) throw new Error(`only ${ids.length} received requests of ${BIG_TENANT} to update; BENCH_TENANT_ROWS is too small for BENCH_WRITE_STATEMENTS`);
    await qr.startTransaction();
    const timed = async (sql: string, params: () => unknown[]): Promise<TriggerTimes> => {
      const trigger: number[] = [];
      const statement: number[] = [];
      for (let i = 0; i < warm + n; i++) {
        const [row] = await qr.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params());
        const [plan] = row['QUERY PLAN'] as Array<{ 'Execution Time': number; Triggers?: Array<{ 'Trigger Name': string; Time: number }> }>;
        if (i < warm) continue;
        trigger.push((plan.Triggers ?? []).filter((x) => x['Trigger Name'].startsWith('request_counts_')).reduce((sum, x) => sum + x.Time, 0));
        statement.push(plan['Execution Time']);
      }
      return { triggerP50: percentile(trigger, 0.5), triggerP95: percentile(trigger, 0.95), statementP50: percentile(statement, 0.5) };
    };
    try {
      const insert = await timed(
        `INSERT INTO ${TABLE} (id, tenant_id, workspace_id, jurisdiction, request_type, request_type_inferred, status, channel, received_at, intake_received_at,
                               clock_mode, policy_pack, policy_version, due_at, intake_source, last_event_id, version, status_changed_at)
         VALUES (gen_random_uuid(), $1, 'ws-01', 'DE', 'access', false, 'received', 'email', now(), now(), 'receipt', 'eu-gdpr', '1.0.0',
                 now() + interval '30 days', '{"channel": "email", "rawText": "Please send me my data."}', gen_random_uuid(), 1, now())`,
        () => [BIG_TENANT],
      );
      const next = (() => {
        let i = 0;
        return () => [ids[i++]];
      })();
      const transition = await timed(`UPDATE ${TABLE} SET status = 'in_progress', status_changed_at = now(), updated_at = now(), version = version + 1 WHERE id = $1`, next);
      const unchanged = await timed(`UPDATE ${TABLE} SET due_at = due_at + interval '1 day', updated_at = now(), version = version + 1 WHERE id = $1`, next);
      for (const [name, x] of [
        ['INSERT (a create)', insert],
        ['UPDATE of the status (a transition)', transition],
        ['UPDATE leaving the status (a clock change)', unchanged],
      ] as const) {
        log(`  ${name}: counters' trigger p50 ${fmt(x.triggerP50)} ms, p95 ${fmt(x.triggerP95)} ms; the statement p50 ${fmt(x.statementP50)} ms (EXPLAIN ANALYZE, ${n} statements)`);
      }
      return { bulkRows: 2 * part, withTriggerS: seconds.on, withoutTriggerS: seconds.off, rebuildS, rebuildRows: Number(rebuilt.n), insert, transition, unchanged };
    } finally {
      await qr.rollbackTransaction();
    }
  } finally {
    await qr.release();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
