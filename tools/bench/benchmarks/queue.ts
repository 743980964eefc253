import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atMost, exactly, figure } from '../harness/figures';
import type { Benchmark, Figure } from '../harness/types';
import { created, REPO_ROOT } from '../harness/util';
import type { TriggerTimes, WriteCosts } from '../queue-writes';

/**
 * queue: the request queue (`GET /api/v1/requests`, lifecycle-clock's RequestQueue.page()) at a million
 * requests — tools/bench/queue.bench.ts (`npm run bench:queue`, see its section of docs/performance.md) run as
 * it is, in a child process, with its JSON output.
 */

interface QueueJson {
  tenantRows: number;
  otherRows: number;
  otherTenants: number;
  iterations: number;
  /** The bulk load's INSERT … SELECT, the counters' trigger included. */
  loadS: number;
  writes: WriteCosts;
  shapes: {
    name: string;
    expectedTotal: number;
    runs: { total: number; totalExact: boolean; rows: number; p50: number; p95: number; selectP50: number; totalP50: number; samples: number[] }[];
  }[];
}

/**
 * How far an estimated total (`totalExact: false`, the at-risk filter beyond its bound) may be from the rows that
 * match on this benchmark's data: the planner's share applied to the exact open count. A check of the benchmark's
 * data, where status and age are independent, not a promise for every tenant's (ADR 0029).
 */
const ESTIMATE_TOLERANCE_PERCENT = 5;

function runChild(env: Record<string, string>, log: (l: string) => void, defer: (c: () => Promise<unknown>) => void): Promise<{ code: number | null; output: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/bench/queue.bench.ts'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output += text;
      // Its progress lines (not the plans) as it goes.
      for (const line of text.split('\n'))
        if (/^(loading|timing|write costs| {2}INSERT| {2}VACUUM| {2}ANALYZE| {2}repetition| {2}bulk| {2}request_counts|dropped)/.test(line)) log(`    queue.bench | ${line.trim()}`);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', fail);
    child.on('exit', (code) => ok({ code, output }));
    // An interrupted run stops it; it drops its database on SIGTERM.
    defer(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    });
  });
}

export const queue: Benchmark = {
  name: 'queue',
  summary: 'GET /requests (RequestQueue.page()) on 1,000,000 requests of one tenant, 100 tenants in all: p95 per shape, total correct (queue.bench.ts)',
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const jsonPath = join(ctx.scratch, 'queue.json');
    const { code, output } = await runChild(
      {
        BENCH_TENANT_ROWS: String(settings.queueTenantRows),
        BENCH_OTHER_ROWS: String(settings.queueOtherRows),
        BENCH_OTHER_TENANTS: String(settings.queueOtherTenants),
        BENCH_ITERATIONS: String(settings.queueIterations),
        BENCH_WRITE_ROWS: String(settings.queueWriteRows),
        BENCH_REPEAT: String(ctx.repeat),
        BENCH_JSON: jsonPath,
      },
      ctx.log,
      ctx.defer,
    );
    // queue.bench.ts makes its own database (and drops it, also on failure): listed with the run's.
    const db = /^database (\S+)$/m.exec(output)?.[1];
    if (db) created.databases.push(db);
    if (code !== 0) throw new Error(`queue.bench.ts exited with ${code}:\n${output.trimEnd().split('\n').slice(-20).join('\n')}`);
    const data = JSON.parse(readFileSync(jsonPath, 'utf8')) as QueueJson;

    const figures: Figure[] = [];
    for (const s of data.shapes) {
      const expected = `${s.expectedTotal.toLocaleString('en-US')} (rows that match)`;
      figures.push(
        figure(
          `${s.name}.p95`,
          `${s.name}: p95`,
          'ms',
          s.runs.map((r) => r.p95),
          { target: atMost(25, 'ms') },
        ),
        figure(
          `${s.name}.p50`,
          `${s.name}: p50 (page SELECT ${s.runs.map((r) => r.selectP50.toFixed(2)).join('/')} ms, total ${s.runs.map((r) => r.totalP50.toFixed(2)).join('/')} ms)`,
          'ms',
          s.runs.map((r) => r.p50),
        ),
      );
      if (s.runs.every((r) => r.totalExact)) {
        figures.push(
          figure(
            `${s.name}.total`,
            `${s.name}: total (totalExact)`,
            'count',
            s.runs.map((r) => r.total),
            { target: exactly(s.expectedTotal, `= ${expected}`) },
          ),
        );
      } else {
        // An estimate must say so in every repetition, and be near the rows that match.
        // A repetition that calls a wrong total exact is as wrong as it gets.
        const error = s.runs.map((r) => (r.totalExact && r.total !== s.expectedTotal ? 100 : (100 * Math.abs(r.total - s.expectedTotal)) / s.expectedTotal));
        const flagged = figure(
          `${s.name}.total`,
          `${s.name}: total (an estimate, totalExact false; ${expected})`,
          'count',
          s.runs.map((r) => r.total),
        );
        const off = figure(`${s.name}.totalError`, `${s.name}: the estimate's distance from the rows that match`, '%', error, { target: atMost(ESTIMATE_TOLERANCE_PERCENT, '%') });
        off.value = Math.max(...error);
        figures.push(flagged, off);
      }
    }
    // A total that is wrong in any repetition is wrong, whatever the median says.
    for (const f of figures.filter((x) => x.key.endsWith('.total') && x.target)) if (f.samples.some((v) => v !== f.target?.bound)) f.value = f.samples.find((v) => v !== f.target?.bound) as number;

    const w = data.writes;
    const trigger = (key: string, what: string, t: TriggerTimes[]) => [
      figure(
        `writes.${key}.trigger.p50`,
        `counters' trigger per ${what}: p50 (the statement, trigger included: ${t.map((x) => x.statementP50.toFixed(3)).join('/')} ms)`,
        'ms',
        t.map((x) => x.triggerP50),
      ),
      figure(
        `writes.${key}.trigger.p95`,
        `counters' trigger per ${what}: p95`,
        'ms',
        t.map((x) => x.triggerP95),
      ),
    ];
    figures.push(
      figure('load', `bulk load: INSERT … SELECT of ${(data.tenantRows + data.otherRows).toLocaleString('en-US')} rows, the counters' trigger included`, 's', [data.loadS]),
      figure('writes.bulk.with', `bulk INSERT … SELECT of ${w.bulkRows.toLocaleString('en-US')} more rows, with the counters' trigger`, 's', [w.withTriggerS]),
      figure('writes.bulk.without', `the same without it (trigger disabled)`, 's', [w.withoutTriggerS]),
      figure('writes.rebuild', `request_counts_rebuild() over ${w.rebuildRows.toLocaleString('en-US')} requests`, 's', [w.rebuildS]),
      ...trigger('insert', 'create (single-row INSERT)', [w.insert]),
      ...trigger('transition', 'transition (single-row UPDATE of the status)', [w.transition]),
      ...trigger('unchanged', 'UPDATE that leaves the status (a clock change)', [w.unchanged]),
    );

    const others = data.otherTenants;
    return {
      title: 'queue — GET /api/v1/requests at a million requests (RequestQueue.page())',
      method:
        `\`tools/bench/queue.bench.ts\` as \`npm run bench:queue\` runs it (its own section below describes the data and the shapes): ${data.tenantRows.toLocaleString('en-US')} requests for one tenant ` +
        `and ${data.otherRows.toLocaleString('en-US')} over ${others} others (${others + 1} tenants), VACUUM ANALYZE, then every queue shape through lifecycle-clock's real RequestQueue.page() ` +
        `(the page and its total, in process, without HTTP: the reads benchmark covers the HTTP path), ${data.iterations} measured rounds per repetition on the same data. ` +
        "Each shape's total is checked against a plain SQL count of the rows its filters match: equal when `totalExact`, otherwise flagged and within " +
        `${ESTIMATE_TOLERANCE_PERCENT} %. Then, once, what the request counters cost the writes: a further bulk INSERT … SELECT with their trigger and without, ` +
        "the rebuild, and the trigger's own time per single-row INSERT and UPDATE (EXPLAIN ANALYZE, in a transaction rolled back).",
      figures,
      raw: { ...data, output },
    };
  },
};
