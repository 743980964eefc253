import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atMost, exactly, figure } from '../harness/figures';
import type { Benchmark, Figure } from '../harness/types';
import { created, REPO_ROOT } from '../harness/util';

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
  shapes: { name: string; expectedTotal: number; runs: { total: number; rows: number; p50: number; p95: number; selectP50: number; countP50: number; samples: number[] }[] }[];
}

function runChild(env: Record<string, string>, log: (l: string) => void, defer: (c: () => Promise<unknown>) => void): Promise<{ code: number | null; output: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['tools/scripts/run-ts.cjs', 'tools/bench/queue.bench.ts'], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output += text;
      // Its progress lines (not the plans) as it goes.
      for (const line of text.split('\n')) if (/^(loading|timing| {2}INSERT| {2}VACUUM| {2}ANALYZE| {2}repetition|dropped)/.test(line)) log(`    queue.bench | ${line.trim()}`);
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
      figures.push(
        figure(`${s.name}.p95`, `${s.name}: p95`, 'ms', s.runs.map((r) => r.p95), { target: atMost(25, 'ms') }),
        figure(`${s.name}.p50`, `${s.name}: p50 (page SELECT ${s.runs.map((r) => r.selectP50.toFixed(2)).join('/')} ms, COUNT ${s.runs.map((r) => r.countP50.toFixed(2)).join('/')} ms)`, 'ms', s.runs.map((r) => r.p50)),
        figure(`${s.name}.total`, `${s.name}: total`, 'count', s.runs.map((r) => r.total), { target: exactly(s.expectedTotal, `= ${s.expectedTotal.toLocaleString('en-US')} (rows that match)`) }),
      );
    }
    // A total that is wrong in any repetition is wrong, whatever the median says.
    for (const f of figures.filter((x) => x.key.endsWith('.total'))) if (f.samples.some((v) => v !== f.target?.bound)) f.value = f.samples.find((v) => v !== f.target?.bound) as number;

    const others = data.otherTenants;
    return {
      title: 'queue — GET /api/v1/requests at a million requests (RequestQueue.page())',
      method:
        `\`tools/bench/queue.bench.ts\` as \`npm run bench:queue\` runs it (its own section below describes the data and the shapes): ${data.tenantRows.toLocaleString('en-US')} requests for one tenant ` +
        `and ${data.otherRows.toLocaleString('en-US')} over ${others} others (${others + 1} tenants), VACUUM ANALYZE, then every queue shape through lifecycle-clock's real RequestQueue.page() ` +
        `(both its queries, in process, without HTTP: the reads benchmark covers the HTTP path), ${data.iterations} measured rounds per repetition on the same data. ` +
        "Each shape's total is checked against a plain SQL count of the rows its filters match.",
      figures,
      raw: { ...data, output },
    };
  },
};
