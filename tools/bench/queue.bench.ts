import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { MODULE_METADATA } from '@nestjs/common/constants';
import type { DataSource } from 'typeorm';
import { INTAKE_CHANNELS, OPEN_STATUSES, type QueueQuery, REQUEST_TYPES, type RequestStatus } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { idempotencyMigrations } from '@dsar/platform/idempotency';
import { messagingMigrations } from '@dsar/platform/messaging';
import { dataSourceOptions, openDataSource, schemaNameFor, UnitOfWork } from '@dsar/platform/persistence';
import { LifecycleClockModule, lifecycleClockService, type RequestEntity } from '@dsar/services/lifecycle-clock';
import { benchEnv, explain, fmt, log, onThrowawayDatabase, percentile, printMachine, recordStatements, type Statement } from './bench-kit';

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
 * (both of its queries: the page SELECT and the COUNT of getManyAndCount).
 * The database is dropped at the end, on failure and on Ctrl-C too.
 *
 * Environment: BENCH_TENANT_ROWS (1000000), BENCH_OTHER_ROWS (200000),
 * BENCH_OTHER_TENANTS (50), BENCH_ITERATIONS (30), BENCH_WARMUP (5),
 * BENCH_VACUUM (1; 0 = ANALYZE only and autovacuum off on the table, i.e. a
 * visibility map that is still empty, as right after a bulk load).
 *
 * For the harness (`npm run bench -- queue`, tools/bench/benchmarks/queue.ts):
 * BENCH_REPEAT (1) runs the measured rounds that many times on the same data,
 * and BENCH_JSON=<file> writes every run's figures per shape there, with the
 * total each shape should have, counted by plain SQL beside RequestQueue.
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

const SCHEMA = schemaNameFor(lifecycleClockService.name);
const TABLE = `"${SCHEMA}"."requests"`;
const BIG_TENANT = 'bench-big';
const SMALL_TENANT = 'bench-other-007';

/** Status mix, weighted toward open requests (60 % open); cumulative thresholds for one random() per row. */
const STATUS_MIX: readonly (readonly [RequestStatus, number])[] = [
  ['received', 0.15],
  ['in_progress', 0.25],
  ['clarification_pending', 0.08],
  ['verification_pending', 0.12],
  ['fulfilled', 0.28],
  ['refused', 0.06],
  ['closed', 0.06],
];
/** US state laws give 45 days, the others 30 (the due time counts from the provenance time). */
const JURISDICTIONS = ['EU', 'DE', 'FR', 'GB', 'US-CA', 'US-VA', 'US-CO'];
const WORKSPACES = 12;
const WORKSPACE_SHARE = 0.6;
/** The cap of the capped-count alternative ("10000+" beyond it). */
const CAP = 10_000;

// ---------------------------------------------------------------------------------------------
// The real RequestQueue, as the HTTP controller gets it.

interface QueueSliceLike {
  rows: RequestEntity[];
  total: number;
}
interface QueuePager {
  page(scope: TenantScope, query: QueueQuery, now?: Date): Promise<QueueSliceLike>;
}
type QueueClass = new (uow: UnitOfWork) => QueuePager;

/**
 * lifecycle-clock's public surface does not export RequestQueue, and a tool may
 * not deep-import a service library (module boundaries). The class is the one
 * LifecycleClockModule provides to its controller, so it is taken from there.
 */
function requestQueueClass(): QueueClass {
  const providers: unknown = Reflect.getMetadata(MODULE_METADATA.PROVIDERS, LifecycleClockModule);
  const found = Array.isArray(providers)
    ? providers.find((p: unknown): p is QueueClass => typeof p === 'function' && p.name === 'RequestQueue')
    : undefined;
  if (!found || typeof found.prototype.page !== 'function') throw new Error('LifecycleClockModule no longer provides RequestQueue with a page() method');
  return found;
}

// ---------------------------------------------------------------------------------------------
// Query recording: every query of page() is timed where TypeORM sends it.

/** A statement page() sent, with what it is: the page SELECT, getManyAndCount's COUNT, or anything else. */
interface Recorded extends Statement {
  kind: 'select' | 'count' | 'other';
}

function recordQueries(ds: DataSource): { take(): Recorded[] } {
  const recorder = recordStatements(ds);
  const kindOf = (sql: string): Recorded['kind'] => (/COUNT\(1\) AS "cnt"/.test(sql) ? 'count' : /^\s*SELECT/i.test(sql) ? 'select' : 'other');
  return { take: () => recorder.take().map((q) => ({ ...q, kind: kindOf(q.sql) })) };
}

// ---------------------------------------------------------------------------------------------
// Data

const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;

function loadSql(): string {
  let cumulative = 0;
  const statusCase = STATUS_MIX.map(([status, weight]) => {
    cumulative += weight;
    return `WHEN r_status < ${cumulative.toFixed(4)} THEN ${sqlText(status)}`;
  }).join(' ');
  const pick = (values: readonly string[]) => `(ARRAY[${values.map(sqlText).join(', ')}])[1 + floor(random() * ${values.length})::int]`;
  // OFFSET 0 fences each level, so every random() is drawn once per row and reused.
  return `
    INSERT INTO ${TABLE} (
      id, tenant_id, workspace_id, jurisdiction, request_type, request_type_inferred, status, channel,
      received_at, intake_received_at, clock_mode, policy_pack, policy_version, due_at,
      intake_source, requestor, authority, last_event_id, created_at, updated_at, version, status_changed_at)
    SELECT
      gen_random_uuid(), tenant_id, workspace_id, jurisdiction, request_type, r_inferred < 0.3, status, channel,
      received_at, intake_received_at, 'receipt',
      CASE WHEN jurisdiction LIKE 'US-%' THEN 'us-state-privacy' ELSE 'eu-gdpr' END, '1.0.0',
      intake_received_at + CASE WHEN jurisdiction LIKE 'US-%' THEN interval '45 days' ELSE interval '30 days' END,
      jsonb_build_object(
        'channel', channel,
        'rawText', 'Please send me a copy of the personal data you hold about me.',
        'receivedAt', to_char(intake_received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      CASE WHEN r_requestor < 0.6 THEN jsonb_build_object('type', 'subject') END,
      NULL, NULL,
      received_at, LEAST(now(), received_at + r_updated * interval '40 days'), 1,
      -- the last status change: the last update, as nothing else changes these rows
      LEAST(now(), received_at + r_updated * interval '40 days')
    FROM (
      SELECT *,
        received_at - r_intake * interval '3 days' AS intake_received_at,
        CASE ${statusCase} ELSE 'closed' END AS status
      FROM (
        SELECT
          CASE WHEN i <= $1 THEN ${sqlText(BIG_TENANT)} ELSE 'bench-other-' || lpad((i % $3)::text, 3, '0') END AS tenant_id,
          now() - random() * interval '730 days' AS received_at,
          CASE WHEN random() < ${WORKSPACE_SHARE} THEN 'ws-' || lpad((1 + floor(random() * ${WORKSPACES}))::int::text, 2, '0') END AS workspace_id,
          ${pick(JURISDICTIONS)} AS jurisdiction,
          ${pick(REQUEST_TYPES)} AS request_type,
          ${pick(INTAKE_CHANNELS)} AS channel,
          random() AS r_status, random() AS r_intake, random() AS r_updated, random() AS r_inferred, random() AS r_requestor
        FROM generate_series(1, $1::int + $2::int) AS g(i)
        OFFSET 0
      ) a
      OFFSET 0
    ) b
    ORDER BY received_at`;
}

async function load(ds: DataSource): Promise<void> {
  const qr = ds.createQueryRunner();
  try {
    await qr.query(`SET work_mem = '256MB'`);
    await qr.query(`SET maintenance_work_mem = '512MB'`);
    let t = Date.now();
    await qr.query(loadSql(), [TENANT_ROWS, OTHER_ROWS, OTHER_TENANTS]);
    log(`  INSERT … SELECT … generate_series: ${TENANT_ROWS + OTHER_ROWS} rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    t = Date.now();
    if (VACUUM) {
      await qr.query(`VACUUM (ANALYZE) ${TABLE}`);
      log(`  VACUUM (ANALYZE): ${((Date.now() - t) / 1000).toFixed(1)} s`);
    } else {
      // Keep autovacuum from setting the visibility map in the middle of the run.
      await qr.query(`ALTER TABLE ${TABLE} SET (autovacuum_enabled = false)`);
      await qr.query(`ANALYZE ${TABLE}`);
      log(`  ANALYZE (no VACUUM, autovacuum off on the table): ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    await qr.release();
  }
  const [size] = await ds.query(
    `SELECT pg_size_pretty(pg_table_size($1)) AS heap, pg_size_pretty(pg_indexes_size($1)) AS indexes`,
    [`${SCHEMA}.requests`],
  );
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
}

// ---------------------------------------------------------------------------------------------
// Measurement

interface Shape {
  name: string;
  scope: TenantScope;
  query: QueueQuery;
  explain?: boolean;
  /** Also time the planner's row estimate for its filter (the alternatives table). */
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
  rows: number;
  page: number[];
  select: number[];
  count: number[];
  countShare: number[];
  last: Recorded[];
}

/**
 * Warm-up rounds, then ITERATIONS rounds; every round calls every shape once,
 * so a burst of load from elsewhere on the machine spreads over all shapes
 * instead of skewing one.
 */
async function measureAll(queue: QueuePager, recorder: { take(): Recorded[] }, shapes: Shape[], now: Date): Promise<Result[]> {
  const results: Result[] = shapes.map((shape) => ({ shape, total: 0, rows: 0, page: [], select: [], count: [], countShare: [], last: [] }));
  const call = async (r: Result, keep: boolean): Promise<void> => {
    recorder.take();
    const t0 = process.hrtime.bigint();
    const slice = await queue.page(r.shape.scope, r.shape.query, now);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const queries = recorder.take();
    if (!keep) return;
    const select = queries.filter((q) => q.kind === 'select').reduce((s, q) => s + q.ms, 0);
    const count = queries.filter((q) => q.kind === 'count').reduce((s, q) => s + q.ms, 0);
    r.page.push(ms);
    r.select.push(select);
    r.count.push(count);
    r.countShare.push(count / ms);
    r.total = slice.total;
    r.rows = slice.rows.length;
    r.last = queries;
  };
  for (let i = 0; i < WARMUP; i++) for (const r of results) await call(r, false);
  for (let i = 0; i < ITERATIONS; i++) for (const r of results) await call(r, true);
  return results;
}

/** The access paths of a plan: the indexes it scans, or the tables it reads sequentially. */
function accessPaths(plan: string[]): string {
  const paths = new Set<string>();
  for (const line of plan) {
    const index = /(Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using |on )(\w+)/.exec(line);
    if (index) paths.add(`${index[2]}${/Only/.test(index[1]) ? ' (index-only)' : /Bitmap/.test(index[1]) ? ' (bitmap)' : ''}${/Backward/.test(line) ? ' ↑' : ''}`);
    if (/Seq Scan on/.test(line)) paths.add('Seq Scan');
  }
  return [...paths].join(', ') || '—';
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

/** The run's figures (BENCH_REPEAT runs of the measured rounds, the first being `first`) and the expected totals, to `path`. */
async function writeJson(ds: DataSource, queue: QueuePager, recorder: { take(): Recorded[] }, first: Result[], now: Date, path: string): Promise<void> {
  const runs = [first];
  for (let i = 1; i < REPEAT; i++) {
    log(`  repetition ${i + 1} of ${REPEAT}`);
    runs.push(await measureAll(queue, recorder, SHAPES, now));
  }
  const expected = new Map<Shape, number>();
  for (const shape of SHAPES) expected.set(shape, await expectedTotal(ds, shape, now));
  const shapes = SHAPES.map((shape) => ({
    name: shape.name,
    expectedTotal: expected.get(shape),
    runs: runs.map((results) => {
      const r = results.find((x) => x.shape === shape) as Result;
      return {
        total: r.total,
        rows: r.rows,
        p50: percentile(r.page, 0.5),
        p95: percentile(r.page, 0.95),
        selectP50: percentile(r.select, 0.5),
        countP50: percentile(r.count, 0.5),
        samples: r.page,
      };
    }),
  }));
  const data = { tenantRows: TENANT_ROWS, otherRows: OTHER_ROWS, otherTenants: OTHER_TENANTS, iterations: ITERATIONS, warmup: WARMUP, vacuum: VACUUM, repeat: REPEAT, shapes };
  writeFileSync(path, JSON.stringify(data));
  for (const s of shapes) if (s.runs.some((r) => r.total !== s.expectedTotal)) log(`  ${s.name}: total ${s.runs.map((r) => r.total).join('/')} but ${s.expectedTotal} rows match`);
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
    await load(ds);

    const recorder = recordQueries(ds);
    const queue = new (requestQueueClass())(new UnitOfWork(ds));
    const now = new Date();

    log(`\ntiming RequestQueue.page(): ${WARMUP} warm-up + ${ITERATIONS} measured rounds, each round calls every shape once`);
    const results = await measureAll(queue, recorder, SHAPES, now);
    for (const r of results) log(`  ${r.shape.name}: p50 ${fmt(percentile(r.page, 0.5))} ms, p95 ${fmt(percentile(r.page, 0.95))} ms (total ${r.total})`);
    if (JSON_OUT) await writeJson(ds, queue, recorder, results, now, JSON_OUT);

    // EXPLAIN ANALYZE times every row it passes; on plans that visit a million rows that inflates the
    // Execution Time well above the real one, so the timings to read are page()'s; the plans say which index.
    log('\nEXPLAIN (ANALYZE, BUFFERS) of the SQL page() sent (last measured call), per shape');
    const plans = new Map<Shape, { select: string[]; count: string[] }>();
    for (const r of results) {
      const select = r.last.find((q) => q.kind === 'select');
      const count = r.last.find((q) => q.kind === 'count');
      plans.set(r.shape, { select: select ? await explain(ds, select) : [], count: count ? await explain(ds, count) : [] });
    }

    log('\n| Shape | total | p50 ms | p95 ms | page SELECT p50 | COUNT p50 | COUNT share (p50) | SELECT plan | COUNT plan |');
    log('|---|---:|---:|---:|---:|---:|---:|---|---|');
    for (const r of results) {
      const p = plans.get(r.shape) ?? { select: [], count: [] };
      const countCell = r.count.some((c) => c > 0) ? fmt(percentile(r.count, 0.5)) : 'not run¹';
      log(
        `| ${r.shape.name} | ${r.total} | ${fmt(percentile(r.page, 0.5))} | ${fmt(percentile(r.page, 0.95))} | ${fmt(percentile(r.select, 0.5))} | ${countCell} | ` +
          `${(percentile(r.countShare, 0.5) * 100).toFixed(0)} % | ${accessPaths(p.select)} | ${p.count.length ? accessPaths(p.count) : '—'} |`,
      );
    }
    log('¹ getManyAndCount skips the COUNT when the page is not full (total = offset + rows).  ↑ = backward index scan');

    for (const r of results.filter((x) => x.shape.explain)) {
      const p = plans.get(r.shape);
      if (!p) continue;
      log(`\n--- ${r.shape.name}: page SELECT`);
      log(r.last.find((q) => q.kind === 'select')?.sql.replace(/\s+/g, ' ') ?? '');
      for (const line of p.select) log(`  ${line}`);
      log(`--- ${r.shape.name}: COUNT`);
      log(r.last.find((q) => q.kind === 'count')?.sql.replace(/\s+/g, ' ') ?? '');
      for (const line of p.count) log(`  ${line}`);
    }

    await alternatives(ds, results);
  });
}

/**
 * What the usual remedies would cost on the same data, in raw SQL (not
 * through RequestQueue): the planner's row estimate or a capped count instead
 * of an exact COUNT, and a keyset (seek) page instead of OFFSET.
 */
async function alternatives(ds: DataSource, results: Result[]): Promise<void> {
  log('\nalternatives, raw SQL on the same data (not RequestQueue)');
  const timeIt = async (fn: () => Promise<unknown>): Promise<number[]> => {
    for (let i = 0; i < WARMUP; i++) await fn();
    const out: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const t0 = process.hrtime.bigint();
      await fn();
      out.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    return out;
  };

  log('| Alternative | result | p50 ms | p95 ms |');
  log('|---|---:|---:|---:|');
  for (const r of results.filter((x) => x.shape.estimate)) {
    const count = r.last.find((q) => q.kind === 'count');
    if (!count || !/^SELECT COUNT\(1\) AS "cnt" FROM/.test(count.sql)) continue;
    const estimateSql = `EXPLAIN (FORMAT JSON) ${count.sql.replace(/^SELECT COUNT\(1\) AS "cnt" FROM/, 'SELECT 1 FROM')}`;
    let estimate = 0;
    const times = await timeIt(async () => {
      const [row] = await ds.query(estimateSql, count.params);
      estimate = Number(row['QUERY PLAN'][0].Plan['Plan Rows']);
    });
    log(`| planner estimate instead of COUNT, ${r.shape.name} | ${estimate} (exact ${r.total}) | ${fmt(percentile(times, 0.5))} | ${fmt(percentile(times, 0.95))} |`);
    const cappedSql = `SELECT count(*)::int AS n FROM (${count.sql.replace(/^SELECT COUNT\(1\) AS "cnt" FROM/, 'SELECT 1 FROM')} LIMIT ${CAP + 1}) capped`;
    let capped = 0;
    const cappedTimes = await timeIt(async () => {
      const [row] = await ds.query(cappedSql, count.params);
      capped = row.n;
    });
    const cappedResult = capped > CAP ? `${CAP}+` : String(capped);
    log(`| COUNT capped at ${CAP + 1} rows, ${r.shape.name} | ${cappedResult} | ${fmt(percentile(cappedTimes, 0.5))} | ${fmt(percentile(cappedTimes, 0.95))} |`);
  }

  const [cursor] = await ds.query(
    `SELECT received_at::text AS received_at, id FROM ${TABLE} WHERE tenant_id = $1 ORDER BY received_at DESC, id DESC OFFSET 9999 LIMIT 1`,
    [BIG_TENANT],
  );
  const keysetSql = `SELECT * FROM ${TABLE} r WHERE r.tenant_id = $1 AND (r.received_at, r.id) < ($2::timestamptz, $3::uuid)
                     ORDER BY r.received_at DESC, r.id DESC LIMIT 25`;
  let keysetRows = 0;
  const keyset = await timeIt(async () => {
    keysetRows = (await ds.query(keysetSql, [BIG_TENANT, cursor.received_at, cursor.id])).length;
  });
  log(`| keyset page after row 10000 (receivedAt desc), instead of offset 10000 | ${keysetRows} rows | ${fmt(percentile(keyset, 0.5))} | ${fmt(percentile(keyset, 0.95))} |`);
  for (const line of await explain(ds, { sql: keysetSql, params: [BIG_TENANT, cursor.received_at, cursor.id] })) log(`  ${line}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
