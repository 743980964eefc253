import { join } from 'node:path';
import { schemaNameFor } from '@dsar/platform/persistence';
import { PgliteHost, pgliteDirectory } from '@dsar/platform/persistence/pglite';
import { jsonHeaders, peopleBodies } from '../harness/api';
import { atMostFloor, exactly, figure } from '../harness/figures';
import { type EmbeddedSystem, startEmbedded } from '../harness/system';
import type { Benchmark, Context, Figure } from '../harness/types';
import { percentileOf, sleep, wallMs } from '../harness/util';

/**
 * soak: embedded mode (one process, PGlite) under a steady rate of creates for minutes, twice: with every periodic
 * job at its default interval, and with every one of them at a short interval over a seeded backlog (pending audit
 * chain heads for the checkpoint, chains of closed requests past their retention for the sweep). The periodic work
 * must not stall the requests: the p99 of the second run within 1.5× the first's (issue [throughput], part 5).
 */

const TENANT = 'bench-soak';
const RETENTION_CLASSES = ['request_record', 'audit_event', 'verification_evidence', 'fulfilment_artifact', 'delivery_log', 'notification_log'] as const;
/** How often the probe asks /health/live, which touches no database: its latency is the event loop's. */
const PROBE_MS = 250;

type Side = 'defaults' | 'jobs';

interface Sample {
  /** Seconds since the start of the soak when it was due. */
  at: number;
  ms: number;
  ok: boolean;
}

interface Soak {
  creates: Sample[];
  probes: Sample[];
  /** How far behind its schedule the client fell (a busy machine, not the system). */
  maxLagMs: number;
  seeded: { pending: number; purgeable: number; ms: number };
}

/**
 * Both runs: operators to notify, and the daily digest due at its first check (a minute after the start), so that
 * the two runs do the same work per create and differ only in the periodic jobs.
 */
const OPERATORS: Record<string, string> = { NOTIFIER_OPERATOR_EMAILS: 'privacy-team@example.org', NOTIFIER_DIGEST_TIME: '00:00' };

/** The jobs run: every periodic job every `ms`. */
function shortIntervals(ms: number): Record<string, string> {
  return {
    AUDIT_CHECKPOINT_INTERVAL_MS: String(ms),
    RETENTION_SWEEP_INTERVAL_MS: String(ms),
    DEADLINE_MONITOR_INTERVAL_MS: String(ms),
    VERIFICATION_MONITOR_INTERVAL_MS: String(ms),
    NOTIFIER_DISPATCH_INTERVAL_MS: String(ms),
    TASK_WATCHDOG_INTERVAL_MS: String(Math.max(1000, ms)),
  };
}

/**
 * Writes the backlog into the data directory of a stopped system with PGlite: `pending` chains of one entry each
 * that no checkpoint covers (open requests, recorded an hour ago), of which the first `purgeable` are of requests
 * closed three years ago (past any retention).
 */
async function seed(dataDir: string, pending: number, purgeable: number): Promise<void> {
  const host = await PgliteHost.open(pgliteDirectory(dataDir));
  try {
    const audit = `"${schemaNameFor('audit-ledger')}"`;
    await host.db.query(
      `INSERT INTO ${audit}.audit_entries (tenant_id, request_id, sequence, event_id, event_type, source, actor, occurred_at, recorded_at, payload, prev_hash, hash)
       SELECT $1, r.id, 1, gen_random_uuid(), CASE WHEN r.closed THEN 'dsar.request.closed.v1' ELSE 'dsar.request.acknowledged.v1' END, 'lifecycle-clock', 'system:bench-soak', r.at, r.at,
              '{"requestId":"' || r.id || '","status":"' || CASE WHEN r.closed THEN 'closed' ELSE 'acknowledged' END || '"}',
              'sha256:' || repeat('0', 64), 'sha256:' || encode(sha256(convert_to(r.id, 'UTF8')), 'hex')
         FROM (SELECT gen_random_uuid()::text AS id, g <= $3 AS closed,
                      CASE WHEN g <= $3 THEN now() - interval '3 years' ELSE now() - interval '1 hour' END AS at
                 FROM generate_series(1, $2) g) r`,
      [TENANT, pending, purgeable],
    );
    await host.db.query(
      `INSERT INTO ${audit}.audit_chain_heads (tenant_id, request_id, sequence, hash) SELECT tenant_id, request_id, sequence, hash FROM ${audit}.audit_entries WHERE tenant_id = $1`,
      [TENANT],
    );
    await host.db.exec('CHECKPOINT');
  } finally {
    await host.close();
  }
}

/** Retention on for every class of the tenant (a year), so that the sweeps look for work. */
async function enableRetention(sys: EmbeddedSystem): Promise<void> {
  for (const cls of RETENTION_CLASSES) {
    const res = await fetch(`${sys.url}/api/v1/tenants/${TENANT}/retention`, {
      method: 'PUT',
      headers: jsonHeaders(sys.keys[TENANT]),
      body: JSON.stringify({ class: cls, minDays: 0, maxDays: 365, purgeEnabled: true }),
      signal: AbortSignal.timeout(30_000),
    });
    if (res.status !== 202) throw new Error(`PUT retention ${cls}: ${res.status} ${await res.text()}`);
  }
}

/** Creates at `rate` per second for `seconds`, each on its own schedule, and the probe of /health/live beside them. */
async function load(sys: EmbeddedSystem, seconds: number, rate: number): Promise<Omit<Soak, 'seeded'>> {
  // A different person each time, as a day of requests is: the same requestor again would make every create a
  // duplicate of all the ones before, whose check grows with them (docs/performance.md, the identity benchmark).
  const bodyOf = peopleBodies(new Date(wallMs() - 60_000), 'soak.example');
  const headers = jsonHeaders(sys.keys[TENANT]);
  const creates: Sample[] = [];
  const probes: Sample[] = [];
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let maxLagMs = 0;
  const timed = (into: Sample[], at: number, call: () => Promise<boolean>) =>
    (async () => {
      const t0 = performance.now();
      let ok = false;
      try {
        ok = await call();
      } catch {
        ok = false;
      }
      into.push({ at, ms: performance.now() - t0, ok });
    })();
  const probing = (async () => {
    for (let at = start; at < end; at += PROBE_MS) {
      if (at > performance.now()) await sleep(at - performance.now());
      await timed(probes, (at - start) / 1000, async () => {
        const res = await fetch(`${sys.url}/health/live`, { signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        return res.status === 200;
      });
    }
  })();
  for (let i = 0; ; i++) {
    const due = start + (i * 1000) / rate;
    if (due >= end) break;
    if (due > performance.now()) await sleep(due - performance.now());
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    inFlight.push(
      timed(creates, (due - start) / 1000, async () => {
        const res = await fetch(`${sys.url}/api/v1/requests`, { method: 'POST', headers, body: bodyOf(i), signal: AbortSignal.timeout(60_000) });
        await res.arrayBuffer();
        return res.status === 202;
      }),
    );
  }
  await Promise.all([...inFlight, probing]);
  creates.sort((a, b) => a.at - b.at);
  return { creates, probes, maxLagMs };
}

async function soakOnce(ctx: Context, side: Side): Promise<Soak> {
  const { settings } = ctx;
  const dir = join(ctx.scratch, `soak-${side}`);
  const built = ctx.smoke ? await ctx.build() : undefined;
  const jobs = side === 'jobs';
  let seeded = { pending: 0, purgeable: 0, ms: 0 };
  if (jobs) {
    // A first start makes the schemas (the migrations) and stops; the backlog is written while nothing runs.
    const t0 = performance.now();
    await (await startEmbedded(dir, built?.entry('embedded'), `soak-${side}-migrate`)).proc.stop();
    const pending = settings.soakBacklog;
    const purgeable = Math.min(settings.soakPurgeable, pending);
    await seed(join(dir, 'data'), pending, purgeable);
    seeded = { pending, purgeable, ms: performance.now() - t0 };
    ctx.log(`    seeded ${pending.toLocaleString('en-US')} pending chain heads (${purgeable.toLocaleString('en-US')} past retention) in ${(seeded.ms / 1000).toFixed(1)} s`);
  }
  const sys = await startEmbedded(dir, built?.entry('embedded'), `soak-${side}`, { ...OPERATORS, ...(jobs ? shortIntervals(settings.soakJobIntervalMs) : {}) });
  try {
    ctx.log(`    embedded mode ready in ${(sys.readyMs / 1000).toFixed(1)} s`);
    if (jobs) await enableRetention(sys);
    const measured = await load(sys, settings.soakS, settings.soakRate);
    if (!sys.proc.running) throw new Error(`embedded mode ${sys.proc.exit}:\n${sys.proc.tail()}`);
    return { ...measured, seeded };
  } finally {
    await sys.proc.stop();
  }
}

/** p50, p99 and max of the samples in [from, to) seconds. */
function stats(samples: Sample[], from = 0, to = Infinity): { p50: number; p99: number; max: number; count: number } {
  const ms = samples.filter((s) => s.at >= from && s.at < to).map((s) => s.ms);
  return { p50: percentileOf(ms, 0.5), p99: percentileOf(ms, 0.99), max: ms.length ? Math.max(...ms) : NaN, count: ms.length };
}

const LABEL: Record<Side, string> = { defaults: 'jobs at their defaults', jobs: 'jobs at a short interval' };

function figuresOf(runs: Record<Side, Soak[]>, minutes: number): Figure[] {
  const figures: Figure[] = [];
  const overall = (side: Side, k: 'p50' | 'p99' | 'max') => runs[side].map((s) => stats(s.creates)[k]);
  for (const side of ['defaults', 'jobs'] as const) {
    const floor = side === 'jobs' ? (k: 'p50' | 'p99' | 'max') => ({ label: LABEL.defaults, samples: overall('defaults', k) }) : () => undefined;
    figures.push(
      figure(`${side}.p50`, `${LABEL[side]}: create p50`, 'ms', overall(side, 'p50'), { floor: floor('p50') }),
      figure(`${side}.p99`, `${LABEL[side]}: create p99`, 'ms', overall(side, 'p99'), { floor: floor('p99'), target: side === 'jobs' ? atMostFloor(1.5) : undefined }),
      figure(`${side}.max`, `${LABEL[side]}: create max`, 'ms', overall(side, 'max'), { floor: floor('max') }),
      figure(
        `${side}.errors`,
        `${LABEL[side]}: creates failed (non-202, timeouts)`,
        'count',
        runs[side].map((s) => s.creates.filter((c) => !c.ok).length),
        { target: exactly(0, '0') },
      ),
      figure(
        `${side}.probe.max`,
        `${LABEL[side]}: GET /health/live max (the event loop)`,
        'ms',
        runs[side].map((s) => stats(s.probes).max),
      ),
    );
    for (let m = 0; m < minutes; m++) {
      const of = (k: 'p50' | 'p99' | 'max') => runs[side].map((s) => stats(s.creates, m * 60, (m + 1) * 60)[k]);
      figures.push(
        figure(`${side}.m${m + 1}.p50`, `${LABEL[side]}, minute ${m + 1}: p50`, 'ms', of('p50')),
        figure(`${side}.m${m + 1}.p99`, `${LABEL[side]}, minute ${m + 1}: p99`, 'ms', of('p99')),
        figure(`${side}.m${m + 1}.max`, `${LABEL[side]}, minute ${m + 1}: max`, 'ms', of('max')),
      );
    }
  }
  return figures;
}

export const soak: Benchmark = {
  name: 'soak',
  summary: 'embedded mode at a steady rate of creates for minutes, periodic jobs at their defaults and at a short interval over a seeded backlog',
  inDefault: true,
  needsInfra: false,
  async run(ctx) {
    const { settings } = ctx;
    const runs: Record<Side, Soak[]> = { defaults: [], jobs: [] };
    // Runs of its own count, not --repeat: one run is already minutes.
    for (let rep = 0; rep < settings.soakRuns; rep++) {
      // The order alternates, so that a machine growing busier does not always count against one side.
      for (const side of rep % 2 === 0 ? (['defaults', 'jobs'] as const) : (['jobs', 'defaults'] as const)) {
        ctx.log(`  rep ${rep + 1}, ${LABEL[side]}: ${settings.soakRate} creates/s for ${settings.soakS} s`);
        const s = await soakOnce(ctx, side);
        runs[side].push(s);
        const all = stats(s.creates);
        ctx.log(
          `    ${all.count} creates: p50 ${all.p50.toFixed(0)} ms, p99 ${all.p99.toFixed(0)} ms, max ${all.max.toFixed(0)} ms, ${s.creates.filter((c) => !c.ok).length} failed; /health/live max ${stats(s.probes).max.toFixed(0)} ms`,
        );
      }
    }
    const minutes = Math.max(1, Math.ceil(settings.soakS / 60));
    const lag = Math.max(...[...runs.defaults, ...runs.jobs].map((s) => s.maxLagMs));
    return {
      title: 'soak — creates at a steady rate while the periodic jobs run (embedded)',
      method:
        `Embedded mode (one process, PGlite, the in-memory bus) on a fresh data directory, ${settings.soakRate} creates/s through the gateway for ${settings.soakS} s, each of another person, ` +
        '(each sent on its own schedule, not after the previous answer; latency from send to answer), twice per repetition: with every periodic job at its default, ' +
        `and with every one at ${settings.soakJobIntervalMs / 1000} s (audit checkpoints, retention sweeps of every class with purging on, deadline and verification monitors, notification dispatcher, ` +
        'task watchdog and fan-out; the idempotency purge keeps its fixed hour) over a backlog written into the data directory before the start: ' +
        `${settings.soakBacklog.toLocaleString('en-US')} audit chains no checkpoint covers (${Math.min(settings.soakPurgeable, settings.soakBacklog).toLocaleString('en-US')} of them of requests closed three years ago). ` +
        'Both runs notify an operator address and have the daily digest due at its first check (a minute in). ' +
        `Beside the creates, GET /health/live every ${PROBE_MS} ms (no database): its worst latency is the longest the event loop stalled. ` +
        'Per minute and overall: p50, p99 and max of the creates; the target is the p99 with the jobs at most 1.5× the p99 at their defaults (the "floor" column).',
      figures: figuresOf(runs, minutes),
      notes: lag > 50 ? [`The client fell up to ${lag.toFixed(0)} ms behind its schedule (a busy machine).`] : [],
      raw: {
        runs: Object.fromEntries(
          Object.entries(runs).map(([side, list]) => [
            side,
            list.map((s) => ({ seeded: s.seeded, maxLagMs: s.maxLagMs, creates: s.creates.map((c) => [Number(c.at.toFixed(3)), Number(c.ms.toFixed(1)), c.ok ? 1 : 0]) })),
          ]),
        ),
      },
    };
  },
};
