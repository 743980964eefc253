import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import { join, resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { databaseUrl, kafkaBrokers } from '@dsar/platform/testing';

/**
 * The benchmark harness in smoke mode (`npm run bench -- --smoke`): every benchmark of `npm run bench` runs for
 * seconds against the real PostgreSQL and Kafka, so that the harness cannot rot. Nothing is judged: the figures
 * of a smoke run mean nothing. Checks that every benchmark produced numbers, that the docs section is generated
 * (into a copy of docs/performance.md), and that the run left no database, topic or process behind.
 */

const ROOT = resolve(__dirname, '../..');
const BENCHMARKS = ['intake', 'propagation', 'queue', 'reads', 'relay', 'footprint', 'catchup', 'soak'];

/** Figures every smoke run must have, by benchmark (key → must it have a floor). */
const KEY_FIGURES: Record<string, Record<string, boolean>> = {
  intake: { 'distributed.c16.throughput': true, 'distributed.c64.p99': true, 'embedded.c16.throughput': true, 'distributed.c16.errors': true },
  propagation: { 'steady.p99': false, 'burst.drain': false },
  queue: { 'default (receivedAt desc, limit 25).p95': false, 'default (receivedAt desc, limit 25).total': false },
  reads: { 'byId.throughput': true, 'page.throughput': true },
  relay: { events: true },
  footprint: { 'built.lifecycle-clock': false, 'built.api-gateway': false, 'embedded-built.ready': false },
  // The burst only: a smoke run never stops the broker (BENCH_CATCHUP_OUTAGE_S=0), which the tests beside it share.
  catchup: { 'burst.created': false, 'burst.relay.catchup': false, 'burst.audit-ledger.drain': false, 'burst.lost': false },
  soak: { 'defaults.p99': false, 'jobs.p99': true, 'jobs.m1.max': false, 'jobs.probe.max': false },
};

interface Report {
  smoke: boolean;
  machine: { nproc: number; postgres: string; kafka: string; node: string };
  loadBefore: number[];
  benchmarks: { name: string; error?: string; figures: { key: string; samples: number[]; value: number; floor?: { value: number }; met: boolean | null }[] }[];
  created: { databases: string[]; topicPrefixes: string[]; pids: number[] };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the benchmark harness, smoke mode', () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'dsar-bench-smoke-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs every benchmark for seconds, reports numbers for each, writes the docs section and leaves nothing behind', async () => {
    const out = join(dir, 'smoke.json');
    const docs = join(dir, 'performance.md');
    copyFileSync(join(ROOT, 'docs/performance.md'), docs);

    const run = await new Promise<{ code: number; output: string }>((ok) =>
      execFile(
        process.execPath,
        ['tools/scripts/run-ts.cjs', 'tools/bench/run.ts', '--smoke', '--out', out, '--write', '--docs', docs],
        { cwd: ROOT, env: process.env, maxBuffer: 64 * 1024 * 1024, timeout: 380_000 },
        (error, stdout, stderr) => ok({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}\n${stderr}` }),
      ),
    );
    if (run.code !== 0) throw new Error(`the smoke run failed (${run.code}):\n${run.output.slice(-6000)}`);

    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.smoke).toBe(true);
    expect(report.machine.nproc).toBeGreaterThan(0);
    expect(report.machine.postgres).toMatch(/^\d+\.\d+/);
    expect(report.loadBefore).toHaveLength(3);
    expect(report.benchmarks.map((b) => b.name)).toEqual(BENCHMARKS);
    for (const b of report.benchmarks) {
      expect({ name: b.name, error: b.error }).toEqual({ name: b.name, error: undefined });
      expect(b.figures.length).toBeGreaterThan(0);
      for (const f of b.figures) {
        // One repetition, a number, and no verdict: smoke runs judge nothing.
        expect({ key: `${b.name}/${f.key}`, samples: f.samples.length, met: f.met }).toEqual({ key: `${b.name}/${f.key}`, samples: 1, met: null });
      }
      for (const [key, hasFloor] of Object.entries(KEY_FIGURES[b.name])) {
        const f = b.figures.find((x) => x.key === key);
        expect({ figure: `${b.name}/${key}`, present: f !== undefined }).toEqual({ figure: `${b.name}/${key}`, present: true });
        expect(Number.isFinite(f?.value)).toBe(true);
        if (hasFloor) expect(Number.isFinite(f?.floor?.value)).toBe(true);
      }
    }
    // The product answered: no create failed (a second of load on a cold system may complete none, so the
    // throughput itself proves nothing), and the warm system served reads.
    const value = (bench: string, key: string) => report.benchmarks.find((b) => b.name === bench)?.figures.find((f) => f.key === key)?.value ?? NaN;
    for (const key of ['distributed.c16.errors', 'distributed.c64.errors', 'embedded.c16.errors', 'embedded.c64.errors']) expect({ key, errors: value('intake', key) }).toEqual({ key, errors: 0 });
    expect(value('reads', 'byId.throughput')).toBeGreaterThan(0);
    expect(value('relay', 'events')).toBeGreaterThan(0);
    expect(value('queue', 'default (receivedAt desc, limit 25).total')).toBeGreaterThan(0);
    // Every create of the burst accepted, and each has its effect in every consumer once.
    expect({ refused: value('catchup', 'burst.refused'), lost: value('catchup', 'burst.lost') }).toEqual({ refused: 0, lost: 0 });
    expect(report.benchmarks.find((b) => b.name === 'catchup')?.figures.some((f) => f.key.startsWith('outage.'))).toBe(false);
    // The soak's creates all answered, with the periodic jobs at their defaults and at a short interval over a backlog.
    for (const key of ['defaults.errors', 'jobs.errors']) expect({ key, errors: value('soak', key) }).toEqual({ key, errors: 0 });

    const section = readFileSync(docs, 'utf8');
    expect(section).toContain('<!-- bench:begin -->');
    expect(section).toContain('<!-- bench:machine:begin -->');
    for (const name of BENCHMARKS) expect(section).toContain(`<!-- bench:${name}:end -->`);
    expect(section).toContain('Smoke run');
    // The hand-written sections are still there.
    expect(section).toContain('## Request queue at a million requests');

    // Nothing left behind: the databases are dropped, the topics deleted, the processes gone.
    expect(report.created.databases.length).toBeGreaterThanOrEqual(2);
    const pg = new Client({ connectionString: databaseUrl() });
    await pg.connect();
    try {
      const { rows } = await pg.query('SELECT datname FROM pg_database WHERE datname = ANY($1)', [report.created.databases]);
      expect(rows).toEqual([]);
    } finally {
      await pg.end();
    }
    const admin = new Kafka({ clientId: 'dsar-bench-smoke-test', brokers: kafkaBrokers().split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const topics = await admin.listTopics();
      expect(topics.filter((t) => report.created.topicPrefixes.some((p) => t.startsWith(p)))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
    expect(report.created.pids.filter(alive)).toEqual([]);
  }, 400_000);
});
