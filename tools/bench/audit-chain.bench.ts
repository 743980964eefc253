import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { type CloudEventEnvelope, type LifecycleAction, LifecycleEventTypes, type RequestAcknowledgedV1, type RequestStatus } from '@dsar/contracts';
import { hostService } from '@dsar/platform/host';
import { schemaNameFor } from '@dsar/platform/persistence';
import { testHostConfig } from '@dsar/platform/testing';
import { chainEntry, ChainVerifier, GENESIS_HASH, type StoredEntry, storedEntry } from '@dsar/platform/audit-chain';
import { auditLedgerServiceWith, ChainVerification, checkpointSettingsFrom, Ledger } from '@dsar/services/audit-ledger';
import { benchEnv, explain, fmt, log, onThrowawayDatabase, percentile, printMachine, recordStatements, type Statement } from './bench-kit';

/**
 * The audit chain: verifying a 100,000-entry chain, and the append rate.
 *
 *   node tools/scripts/run-ts.cjs tools/bench/audit-chain.bench.ts
 *
 * Creates a throw-away database on the PostgreSQL of DATABASE_URL and hosts
 * the real audit-ledger service on it (its migrations, its DataSource, its
 * pool), then:
 *
 *  1. times `Ledger.append()` — one transaction per event that locks the
 *     chain head, checks the event id, inserts the entry and moves the head —
 *     sequentially on one chain, concurrently over many chains, and
 *     concurrently on one chain (where the head lock serialises the workers);
 *     a bare one-row autocommit INSERT is timed beside it as the commit floor;
 *  2. builds one BENCH_CHAIN_ENTRIES-entry chain with the domain's own
 *     `chainEntry()` (real hashes, so it verifies) and bulk-inserts it, since
 *     appending 100,000 entries one transaction at a time would take minutes;
 *     then VACUUM ANALYZE;
 *  3. times `ChainVerification.verify()` — the code behind
 *     `POST /requests/:id/audit/verify` — over the whole chain, and splits its
 *     time into reading the pages (`Ledger.entries()`, and of that the
 *     server's own execution of the page queries) and hashing (`ChainVerifier`
 *     over entries already in memory);
 *  4. prints EXPLAIN (ANALYZE, BUFFERS) of the page query exactly as the
 *     ledger sent it (the middle page): it must be an index range scan.
 *
 * The database is dropped at the end, on failure and on Ctrl-C too.
 *
 * Environment: BENCH_APPEND_EVENTS (5000), BENCH_APPEND_WORKERS (8),
 * BENCH_APPEND_REQUESTS (100), BENCH_CHAIN_ENTRIES (100000),
 * BENCH_INSERT_BATCH (5000), BENCH_VERIFY_RUNS (10), BENCH_VERIFY_WARMUP (2),
 * BENCH_SPLIT_RUNS (3).
 */

const env = benchEnv;

const APPEND_EVENTS = Math.max(100, env('BENCH_APPEND_EVENTS', 5000));
const APPEND_WORKERS = Math.max(1, env('BENCH_APPEND_WORKERS', 8));
const APPEND_REQUESTS = Math.max(1, env('BENCH_APPEND_REQUESTS', 100));
const CHAIN_ENTRIES = Math.max(1, env('BENCH_CHAIN_ENTRIES', 100_000));
const INSERT_BATCH = Math.max(100, env('BENCH_INSERT_BATCH', 5000));
const VERIFY_RUNS = Math.max(1, env('BENCH_VERIFY_RUNS', 10));
const VERIFY_WARMUP = env('BENCH_VERIFY_WARMUP', 2);
const SPLIT_RUNS = Math.max(1, env('BENCH_SPLIT_RUNS', 3));

/** The target for verifying a 100,000-entry chain. */
const VERIFY_TARGET_MS = 2000;
/** Appends before the measured ones: pool connections opened, prepared paths warm. */
const APPEND_WARMUP = 50;

const SERVICE = auditLedgerServiceWith(checkpointSettingsFrom({}));
const SCHEMA = schemaNameFor(SERVICE.name);
const ENTRIES = `"${SCHEMA}"."audit_entries"`;
const HEADS = `"${SCHEMA}"."audit_chain_heads"`;
const TENANT = 'bench-tenant';

// ---------------------------------------------------------------------------------------------
// Events as lifecycle-clock emits them

/**
 * A request's workflow, step by step, with the event each step emits. The
 * chain repeats it, so entries carry the event types and payload shapes a
 * real chain holds (none of these types has personal-data fields, so the
 * ledger appends them without a salt lookup — the common case).
 */
const STEPS: readonly { type: string; action: LifecycleAction; from: RequestStatus; to: RequestStatus; extra: Record<string, unknown> }[] = [
  {
    type: LifecycleEventTypes.acknowledged,
    action: 'acknowledge',
    from: 'received',
    to: 'in_progress',
    extra: { channel: 'web_form', acknowledgementDueAt: null, hasMessage: true },
  },
  {
    type: LifecycleEventTypes.clarificationRequested,
    action: 'request_clarification',
    from: 'in_progress',
    to: 'clarification_pending',
    extra: { channel: 'email', clockPaused: true },
  },
  {
    type: LifecycleEventTypes.clarificationReceived,
    action: 'receive_clarification',
    from: 'clarification_pending',
    to: 'in_progress',
    extra: { clockResumed: true, hasMessage: true },
  },
  {
    type: LifecycleEventTypes.verificationRequested,
    action: 'request_verification',
    from: 'in_progress',
    to: 'verification_pending',
    extra: { clockPaused: false },
  },
  { type: LifecycleEventTypes.verified, action: 'approve_verification', from: 'verification_pending', to: 'in_progress', extra: { clockResumed: false } },
];

const DAY_MS = 86_400_000;

/** The payload of step `i` of a request's workflow, at `at`: the fields every lifecycle event carries, and the step's own. */
function payloadOf(requestId: string, i: number, at: number): { type: string; data: Record<string, unknown> } {
  const step = STEPS[i % STEPS.length];
  const base: Omit<RequestAcknowledgedV1, 'channel' | 'acknowledgementDueAt' | 'hasMessage'> = {
    requestId,
    tenantId: TENANT,
    workspaceId: 'ws-03',
    actor: `user:${(i % 7) + 1}b6f0c2e-4d1a-4c9e-9a51-3f2d8e7c${String(1000 + (i % 9000)).padStart(4, '0')}`,
    action: step.action,
    fromStatus: step.from,
    status: step.to,
    occurredAt: new Date(at).toISOString(),
    dueAt: new Date(at + 30 * DAY_MS).toISOString(),
  };
  return { type: step.type, data: { ...base, ...step.extra } };
}

/** The CloudEvent envelope lifecycle-clock would publish, as the ledger's consumer hands it to `append()`. */
function envelope(requestId: string, i: number, at = Date.now()): CloudEventEnvelope {
  const { type, data } = payloadOf(requestId, i, at);
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: '/dsar/lifecycle-clock',
    type,
    subject: requestId,
    time: new Date(at).toISOString(),
    datacontenttype: 'application/json',
    tenantid: TENANT,
    data,
  };
}

// ---------------------------------------------------------------------------------------------
// Timing helpers

const now = (): bigint => process.hrtime.bigint();
const msSince = (t0: bigint): number => Number(now() - t0) / 1e6;

const rate = (count: number, ms: number): string => Math.round((count * 1000) / ms).toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
// 1. Append rate

interface AppendRun {
  name: string;
  events: number;
  wallMs: number;
  /** Each append()'s own duration; under concurrency it includes waiting for a pool connection or a head lock. */
  latencies: number[];
  /** Sequential runs only: per append, the statements sent, their summed time and the COMMIT's. */
  statements?: { count: number[]; inDbMs: number[]; commitMs: number[] };
}

/**
 * `workers` loops take the next event number from one counter until `events`
 * are appended; event n goes to chain `requestIds[n % length]`. With one
 * worker this is the sequential case, the latency of one transaction after
 * the other.
 */
async function appendRun(ledger: Ledger, name: string, events: number, workers: number, requestIds: readonly string[]): Promise<AppendRun> {
  const latencies: number[] = [];
  // With one worker every statement recorded between two appends belongs to the one in between.
  const recorder = workers === 1 ? recordStatements(ledger.dataSource) : undefined;
  const statements = recorder ? { count: [] as number[], inDbMs: [] as number[], commitMs: [] as number[] } : undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let n = next++; n < events; n = next++) {
      const event = envelope(requestIds[n % requestIds.length], n);
      recorder?.take();
      const t0 = now();
      const result = await ledger.append(event);
      latencies.push(msSince(t0));
      if (result.duplicate) throw new Error(`event ${event.id} was reported as a duplicate`);
      if (recorder && statements) {
        const sent = recorder.take();
        statements.count.push(sent.length);
        statements.inDbMs.push(sent.reduce((sum, q) => sum + q.ms, 0));
        statements.commitMs.push(sent.filter((q) => /^\s*COMMIT/i.test(q.sql)).reduce((sum, q) => sum + q.ms, 0));
      }
    }
  };
  const t0 = now();
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    recorder?.stop();
  }
  return { name, events, wallMs: msSince(t0), latencies, statements };
}

/**
 * The cost of a commit alone on this server: one-row INSERTs, each its own
 * transaction (one round trip, one WAL flush). An append is a transaction of
 * its own too, so this is the floor under one chain's sequential rate.
 */
async function commitFloor(ledger: Ledger, count: number): Promise<AppendRun> {
  const ds = ledger.dataSource;
  await ds.query('CREATE TABLE public.bench_commit_floor (n int NOT NULL)');
  const latencies: number[] = [];
  const t0 = now();
  for (let n = 0; n < count; n++) {
    const t = now();
    await ds.query('INSERT INTO public.bench_commit_floor (n) VALUES ($1)', [n]);
    latencies.push(msSince(t));
  }
  return { name: 'control: one-row INSERT, autocommit, sequential', events: count, wallMs: msSince(t0), latencies };
}

async function measureAppends(ledger: Ledger): Promise<AppendRun[]> {
  // Warm the pool and the code paths on a chain of its own.
  await appendRun(ledger, 'warm-up', APPEND_WARMUP, APPEND_WORKERS, [randomUUID()]);

  const runs: AppendRun[] = [];
  const one = [randomUUID()];
  log(`\n(a) ${APPEND_EVENTS} sequential appends to one chain`);
  runs.push(await appendRun(ledger, '(a) sequential, one chain', APPEND_EVENTS, 1, one));
  report(runs[runs.length - 1]);

  const many = Array.from({ length: APPEND_REQUESTS }, () => randomUUID());
  log(`(b) ${APPEND_EVENTS} appends by ${APPEND_WORKERS} concurrent workers over ${APPEND_REQUESTS} chains`);
  runs.push(await appendRun(ledger, `(b) ${APPEND_WORKERS} workers, ${APPEND_REQUESTS} chains`, APPEND_EVENTS, APPEND_WORKERS, many));
  report(runs[runs.length - 1]);

  const hot = [randomUUID()];
  log(`(c) ${APPEND_EVENTS} appends by ${APPEND_WORKERS} concurrent workers to one chain (the head lock serialises them)`);
  runs.push(await appendRun(ledger, `(c) ${APPEND_WORKERS} workers, one chain`, APPEND_EVENTS, APPEND_WORKERS, hot));
  report(runs[runs.length - 1]);

  log(`control: ${APPEND_EVENTS} one-row autocommit INSERTs (the commit floor)`);
  runs.push(await commitFloor(ledger, APPEND_EVENTS));
  report(runs[runs.length - 1]);

  // An append that lost an entry would show here: every chain must be gap-free and verify.
  for (const requestId of [...one, hot[0], many[0]]) await assertVerifies(ledger, requestId);
  return runs;
}

function report(r: AppendRun): void {
  log(`  ${rate(r.events, r.wallMs)} events/s, p50 ${fmt(percentile(r.latencies, 0.5))} ms, p99 ${fmt(percentile(r.latencies, 0.99))} ms`);
  if (r.statements) {
    const s = r.statements;
    log(
      `  per append: ${percentile(s.count, 0.5)} statements (median), their summed time p50 ${fmt(percentile(s.inDbMs, 0.5))} ms, ` +
        `of which COMMIT p50 ${fmt(percentile(s.commitMs, 0.5))} ms / p99 ${fmt(percentile(s.commitMs, 0.99))} ms`,
    );
  }
}

async function assertVerifies(ledger: Ledger, requestId: string): Promise<void> {
  const view = await ledger.view(TENANT, requestId);
  if (!view) throw new Error(`no chain for ${requestId}`);
  const verifier = new ChainVerifier();
  for await (const page of ledger.entries(TENANT, requestId, view.head.sequence)) for (const e of page) verifier.push(e);
  if (verifier.mismatches.length > 0 || verifier.entriesChecked !== view.head.sequence) {
    throw new Error(`chain ${requestId} does not verify after the appends: ${JSON.stringify(verifier.mismatches.slice(0, 3))}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. The long chain, built in Node and bulk-inserted

/**
 * Entries of one chain, `count` long, hashed and linked by the domain's
 * `chainEntry()` exactly as an append would (times as UTC ISO text with
 * milliseconds, the text the hash covers and the ledger reads back). Yields
 * batches so that at most one batch is held beside the insert.
 */
function* chainBatches(requestId: string, count: number, batch: number): Generator<StoredEntry[]> {
  // One event a minute, ending now: 100,000 entries span about ten weeks.
  const start = Date.now() - count * 60_000;
  let head = { sequence: 0, hash: GENESIS_HASH };
  for (let from = 0; from < count; from += batch) {
    const out: StoredEntry[] = [];
    for (let i = from; i < Math.min(count, from + batch); i++) {
      const at = start + i * 60_000;
      const { type, data } = payloadOf(requestId, i, at);
      const entry = chainEntry(head, {
        tenantId: TENANT,
        requestId,
        eventId: randomUUID(),
        eventType: type,
        source: '/dsar/lifecycle-clock',
        actor: String(data['actor']),
        occurredAt: new Date(at).toISOString(),
        recordedAt: new Date(at + 40 + (i % 200)).toISOString(),
        payload: data,
      });
      out.push(storedEntry(entry));
      head = entry;
    }
    yield out;
  }
}

/** One INSERT per batch, every column passed as one array and spread back into rows by unnest. */
async function insertBatch(ledger: Ledger, entries: StoredEntry[]): Promise<void> {
  const column = <T>(pick: (e: StoredEntry) => T): T[] => entries.map(pick);
  await ledger.dataSource.query(
    `INSERT INTO ${ENTRIES}
       (tenant_id, request_id, sequence, event_id, event_type, source, actor, occurred_at, recorded_at, payload, prev_hash, hash)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::uuid[], $5::text[], $6::text[], $7::text[],
                          $8::timestamptz[], $9::timestamptz[], $10::text[], $11::text[], $12::text[])`,
    [
      column((e) => e.tenantId),
      column((e) => e.requestId),
      column((e) => e.sequence),
      column((e) => e.eventId),
      column((e) => e.eventType),
      column((e) => e.source),
      column((e) => e.actor),
      column((e) => e.occurredAt),
      column((e) => e.recordedAt),
      column((e) => e.payloadJson),
      column((e) => e.prevHash),
      column((e) => e.hash),
    ],
  );
}

interface BuiltChain {
  requestId: string;
  head: { sequence: number; hash: string };
  hashMs: number;
  insertMs: number;
  vacuumMs: number;
  payloadBytes: number;
}

async function buildChain(ledger: Ledger): Promise<BuiltChain> {
  const requestId = randomUUID();
  let head = { sequence: 0, hash: GENESIS_HASH };
  let hashMs = 0;
  let insertMs = 0;
  let payloadBytes = 0;
  const batches = chainBatches(requestId, CHAIN_ENTRIES, INSERT_BATCH);
  for (;;) {
    let t = now();
    const next = batches.next();
    hashMs += msSince(t);
    if (next.done) break;
    const batch = next.value;
    for (const e of batch) payloadBytes += Buffer.byteLength(e.payloadJson);
    t = now();
    await insertBatch(ledger, batch);
    insertMs += msSince(t);
    head = batch[batch.length - 1];
  }
  // The head row an append would have left: the verify endpoint starts from it.
  await ledger.dataSource.query(`INSERT INTO ${HEADS} (tenant_id, request_id, sequence, hash, checkpointed_sequence) VALUES ($1, $2, $3, $4, 0)`, [TENANT, requestId, head.sequence, head.hash]);
  const t = now();
  // Set the visibility map and statistics, as autovacuum would have by the time anyone verifies an old chain.
  await ledger.dataSource.query(`VACUUM (ANALYZE) ${ENTRIES}`);
  await ledger.dataSource.query(`VACUUM (ANALYZE) ${HEADS}`);
  const vacuumMs = msSince(t);
  return { requestId, head: { sequence: head.sequence, hash: head.hash }, hashMs, insertMs, vacuumMs, payloadBytes };
}

// ---------------------------------------------------------------------------------------------
// 3. Verification

interface VerifyTimes {
  runs: number[];
  checkedEntries: number;
}

/** The real verification of the whole chain against its head; anything but `verified` stops the benchmark. */
async function timeVerify(verification: ChainVerification, chain: BuiltChain): Promise<VerifyTimes> {
  const once = async (): Promise<{ ms: number; checked: number }> => {
    const t0 = now();
    const result = await verification.verify(TENANT, chain.requestId, { hash: chain.head.hash, sequence: chain.head.sequence });
    const ms = msSince(t0);
    if (!result.verified || result.status !== 'verified' || result.checkedEntries !== chain.head.sequence) {
      throw new Error(`verification did not succeed, so its timing means nothing: ${JSON.stringify({ ...result, mismatches: result.mismatches.slice(0, 3) })}`);
    }
    return { ms, checked: result.checkedEntries };
  };
  for (let i = 0; i < VERIFY_WARMUP; i++) await once();
  const runs: number[] = [];
  let checkedEntries = 0;
  for (let i = 0; i < VERIFY_RUNS; i++) {
    const r = await once();
    runs.push(r.ms);
    checkedEntries = r.checked;
    log(`  run ${i + 1}: ${fmt(r.ms)} ms`);
  }
  return { runs, checkedEntries };
}

interface Split {
  readMs: number[];
  hashMs: number[];
  pages: number;
  /** Of the read (first run): the page queries timed where sent, and the server's execution of them. */
  queryMs: number;
  serverMs: number;
  /** The page queries of the first run, exactly as sent. */
  sent: Statement[];
}

/**
 * Where verify()'s time goes: the same pages read through `Ledger.entries()`
 * with nothing done to them, then `ChainVerifier` over the entries just read
 * (the objects verify() would hash, as the driver returned them), with no
 * database in between. verify() asks for the next page while it hashes the
 * current one, so the server's share of the read overlaps the hashing; the
 * driver's share (receiving and decoding rows) runs on the same thread as
 * the hashing and cannot. The two add up to a little more than its time.
 */
async function timeSplit(ledger: Ledger, chain: BuiltChain): Promise<Split> {
  const split: Split = { readMs: [], hashMs: [], pages: 0, queryMs: 0, serverMs: 0, sent: [] };
  for (let run = 0; run < SPLIT_RUNS; run++) {
    const entries: StoredEntry[] = [];
    let pages = 0;
    const recorder = run === 0 ? recordStatements(ledger.dataSource) : undefined;
    let t0 = now();
    try {
      for await (const page of ledger.entries(TENANT, chain.requestId, chain.head.sequence)) {
        pages++;
        for (const e of page) entries.push(e);
      }
    } finally {
      recorder?.stop();
    }
    split.readMs.push(msSince(t0));
    split.pages = pages;
    if (recorder) {
      const sent = recorder.take();
      split.sent = sent;
      split.queryMs = sent.reduce((sum, q) => sum + q.ms, 0);
      split.serverMs = await serverTime(ledger, sent);
    }

    t0 = now();
    const verifier = new ChainVerifier();
    for (const e of entries) verifier.push(e);
    split.hashMs.push(msSince(t0));
    if (verifier.mismatches.length > 0) throw new Error('the in-memory chain does not verify');
  }
  return split;
}

/**
 * The server's own time for the exact page queries the read sent: EXPLAIN
 * ANALYZE runs each (index scan, to_char of the times) but sends no rows, so
 * what the read took beyond this is transfer, row decoding in the driver
 * (jsonb text to objects included) and TypeORM around it.
 */
async function serverTime(ledger: Ledger, sent: Statement[]): Promise<number> {
  let total = 0;
  for (const q of sent) {
    const [row]: { 'QUERY PLAN': { 'Execution Time': number; 'Planning Time': number }[] }[] = await ledger.dataSource.query(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${q.sql}`, q.params);
    total += row['QUERY PLAN'][0]['Execution Time'] + row['QUERY PLAN'][0]['Planning Time'];
  }
  return total;
}

/** The plan of the middle page query, as sent: half of the chain still lies after it. */
async function printPagePlan(ledger: Ledger, split: Split): Promise<void> {
  const index = Math.floor(split.sent.length / 2);
  const middle = split.sent[index];
  if (!middle) return;
  log(`\nEXPLAIN (ANALYZE, BUFFERS) of page ${index + 1} of ${split.sent.length}, the SQL Ledger.entries() sent`);
  log(`  ${middle.sql.replace(/\s+/g, ' ')}`);
  log(`  params ${JSON.stringify(middle.params)}`);
  for (const line of await explain(ledger.dataSource, middle)) log(`  ${line}`);
}

// ---------------------------------------------------------------------------------------------

function printResults(appends: AppendRun[], chain: BuiltChain, verify: VerifyTimes, split: Split): void {
  const median = percentile(verify.runs, 0.5);
  const readMedian = percentile(split.readMs, 0.5);
  const hashMedian = percentile(split.hashMs, 0.5);

  log('\n| Append | events | wall s | events/s | p50 ms | p99 ms |');
  log('|---|---:|---:|---:|---:|---:|');
  for (const r of appends) {
    log(`| ${r.name} | ${r.events} | ${(r.wallMs / 1000).toFixed(1)} | ${rate(r.events, r.wallMs)} | ${fmt(percentile(r.latencies, 0.5))} | ${fmt(percentile(r.latencies, 0.99))} |`);
  }

  log(`\n| Verify ${chain.head.sequence} entries (${VERIFY_RUNS} runs after ${VERIFY_WARMUP} warm-up) | ms | entries/s |`);
  log('|---|---:|---:|');
  log(`| ChainVerification.verify(), min | ${fmt(Math.min(...verify.runs))} | ${rate(verify.checkedEntries, Math.min(...verify.runs))} |`);
  log(`| ChainVerification.verify(), median | ${fmt(median)} | ${rate(verify.checkedEntries, median)} |`);
  log(`| ChainVerification.verify(), max | ${fmt(Math.max(...verify.runs))} | ${rate(verify.checkedEntries, Math.max(...verify.runs))} |`);
  log(`| split: read ${split.pages} pages through Ledger.entries() (median of ${SPLIT_RUNS}) | ${fmt(readMedian)} | ${rate(chain.head.sequence, readMedian)} |`);
  log(`| split: ChainVerifier over the entries in memory (median of ${SPLIT_RUNS}) | ${fmt(hashMedian)} | ${rate(chain.head.sequence, hashMedian)} |`);
  log(`| read, first run: ${split.pages} page queries timed where TypeORM sent them | ${fmt(split.queryMs)} | |`);
  log(`| read, first run: the server executing them (EXPLAIN ANALYZE, no rows sent) | ${fmt(split.serverMs)} | |`);
  log(
    `\nverify median ${fmt(median)} ms: ${median < VERIFY_TARGET_MS ? 'UNDER' : 'OVER'} the ${VERIFY_TARGET_MS} ms target; ` +
      `read ${Math.round((100 * readMedian) / (readMedian + hashMedian))} % / hashing ${Math.round((100 * hashMedian) / (readMedian + hashMedian))} % of read + hashing ` +
      `(${fmt(readMedian + hashMedian)} ms, against verify's ${fmt(median)} ms)`,
  );
}

async function main(): Promise<void> {
  await onThrowawayDatabase(async (db, closeBeforeDrop) => {
    const service = await hostService(SERVICE, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 10 }));
    closeBeforeDrop(() => service.close());
    const ledger = service.app.get(Ledger);
    const verification = service.app.get(ChainVerification);
    // The commit path decides the append rate: how and whether each commit waits for its WAL flush.
    await printMachine(ledger.dataSource, ['shared_buffers', 'work_mem', 'synchronous_commit', 'fsync', 'wal_sync_method', 'commit_delay', 'jit']);

    log(`\nappend rate through Ledger.append() (${APPEND_WARMUP} warm-up appends first; pool of 10 connections)`);
    const appends = await measureAppends(ledger);

    log(`\nbuilding one chain of ${CHAIN_ENTRIES} entries with chainEntry(), inserted in batches of ${INSERT_BATCH}`);
    const chain = await buildChain(ledger);
    log(
      `  hashing ${(chain.hashMs / 1000).toFixed(1)} s, INSERT … unnest ${(chain.insertMs / 1000).toFixed(1)} s, VACUUM (ANALYZE) ${(chain.vacuumMs / 1000).toFixed(1)} s; ` +
        `payload ${Math.round(chain.payloadBytes / CHAIN_ENTRIES)} bytes of JSON per entry on average`,
    );
    const [size] = await ledger.dataSource.query(`SELECT count(*)::int AS rows, pg_size_pretty(pg_table_size($1)) AS heap, pg_size_pretty(pg_indexes_size($1)) AS indexes FROM ${ENTRIES}`, [
      `${SCHEMA}.audit_entries`,
    ]);
    log(`  audit_entries: ${size.rows} rows in all, table ${size.heap}, indexes ${size.indexes}`);

    log(`\nChainVerification.verify() of the whole chain: ${VERIFY_WARMUP} warm-up + ${VERIFY_RUNS} measured runs`);
    const verify = await timeVerify(verification, chain);
    const split = await timeSplit(ledger, chain);

    await printPagePlan(ledger, split);

    printResults(appends, chain, verify, split);
  });
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
