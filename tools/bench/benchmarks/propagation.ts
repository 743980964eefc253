import { schemaNameFor } from '@dsar/platform/persistence';
import { inTurn, jsonHeaders, peopleBodies } from '../harness/api';
import { atMost, exactly, figure } from '../harness/figures';
import { runLoad, type LoadSummary } from '../harness/load';
import type { DistributedSystem } from '../harness/system';
import type { Benchmark, Context } from '../harness/types';
import { percentileOf, quiesce, sleep, wallMs } from '../harness/util';

/**
 * propagation: how long a create takes to reach the audit chain in distributed mode — from the 202 of
 * `POST /api/v1/requests` to the first entry of the request's chain in audit-ledger (the create commits in
 * lifecycle-clock with its event in the outbox; the relay publishes it to Kafka; audit-ledger consumes it and
 * appends it) — at a steady rate, and how long the backlog of a burst takes to drain.
 */

const AUDIT = `"${schemaNameFor('audit-ledger')}".audit_entries`;
const REQUESTS = `"${schemaNameFor('lifecycle-clock')}".requests`;

interface Steady {
  sent: number;
  acknowledged: number;
  errors: number;
  /** ms from the 202 to the first chain entry's recorded_at, per request that got one. */
  latencies: number[];
  missing: number;
  p50: number;
  p99: number;
  max: number;
  min: number;
  /** How far behind the schedule the client fell (a sign of a slow client, not of the system). */
  maxLagMs: number;
}

/** `count` creates at `rate` per second, each on its own schedule (not waiting for the one before). */
async function steady(ctx: Context, sys: DistributedSystem, nextBody: () => string): Promise<Steady> {
  const { propagationCount: count, propagationRate: rate, drainTimeoutS } = ctx.settings;
  const token = sys.keys['bench-propagation'];
  const acked = new Map<string, number>();
  let errors = 0;
  let maxLagMs = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    inFlight.push(
      (async () => {
        try {
          const res = await fetch(`${sys.gatewayUrl}/api/v1/requests`, { method: 'POST', headers: jsonHeaders(token), body: nextBody(), signal: AbortSignal.timeout(10_000) });
          const at = wallMs();
          const json = (await res.json()) as { id?: string };
          if (res.status === 202 && typeof json.id === 'string') acked.set(json.id, at);
          else errors++;
        } catch {
          errors++;
        }
      })(),
    );
  }
  await Promise.all(inFlight);

  // The first chain entry of each request: its recorded_at is when audit-ledger began the append (its
  // transaction commits a few ms later). Polled until all are there or the drain timeout has passed.
  const ids = [...acked.keys()];
  const recorded = new Map<string, number>();
  const deadline = performance.now() + drainTimeoutS * 1000;
  while (recorded.size < ids.length && performance.now() < deadline) {
    const { rows } = await sys.pool().query<{ request_id: string; ms: number }>(
      `SELECT request_id, (extract(epoch FROM recorded_at) * 1000)::float8 AS ms FROM ${AUDIT}
        WHERE tenant_id = $1 AND sequence = 1 AND request_id = ANY($2::text[])`,
      ['bench-propagation', ids.filter((id) => !recorded.has(id))],
    );
    for (const r of rows) recorded.set(r.request_id, Number(r.ms));
    if (recorded.size < ids.length) await sleep(100);
  }
  const latencies = ids.filter((id) => recorded.has(id)).map((id) => (recorded.get(id) as number) - (acked.get(id) as number));
  return {
    sent: count,
    acknowledged: acked.size,
    errors,
    latencies,
    missing: ids.length - recorded.size,
    p50: percentileOf(latencies, 0.5),
    p99: percentileOf(latencies, 0.99),
    max: Math.max(...latencies),
    min: Math.min(...latencies),
    maxLagMs,
  };
}

interface Burst {
  load: LoadSummary;
  created: number;
  /** Requests whose first chain entry was not there yet when the burst ended. */
  backlogAtEnd: number;
  /** Seconds from the end of the burst until every request created has its first chain entry; NaN when it did not drain in time. */
  drainS: number;
}

async function counts(sys: DistributedSystem): Promise<{ requests: number; audited: number }> {
  const { rows } = await sys.pool().query<{ requests: number; audited: number }>(
    `SELECT (SELECT count(*) FROM ${REQUESTS} WHERE tenant_id = $1)::int AS requests,
            (SELECT count(*) FROM ${AUDIT} WHERE tenant_id = $1 AND sequence = 1)::int AS audited`,
    ['bench-burst'],
  );
  return rows[0];
}

/** `burstS` seconds of creates at `clients` clients, then the time until audit-ledger has caught up. */
async function burst(ctx: Context, sys: DistributedSystem, nextBody: () => string): Promise<Burst> {
  const { clients, burstS, drainTimeoutS } = ctx.settings;
  const before = await counts(sys);
  const load = await runLoad({ url: sys.gatewayUrl, connections: clients, durationS: burstS, method: 'POST', path: '/api/v1/requests', headers: jsonHeaders(sys.keys['bench-burst']), nextBody });
  const end = performance.now();
  let now = await counts(sys);
  const created = now.requests - before.requests;
  const backlogAtEnd = created - (now.audited - before.audited);
  while (now.audited - before.audited < created && performance.now() - end < drainTimeoutS * 1000) {
    await sleep(50);
    now = await counts(sys);
  }
  const drained = now.audited - before.audited >= created;
  return { load, created, backlogAtEnd, drainS: drained ? (performance.now() - end) / 1000 : NaN };
}

export const propagation: Benchmark = {
  name: 'propagation',
  summary: 'from the 202 of a create to its first audit-chain entry at a steady rate, and the drain of a burst',
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const sys = await ctx.distributed();
    // Each create of another person, as a day of requests is (the same person again would make each a duplicate of
    // all the ones before, serialised on the person's identity lock).
    const receivedAt = new Date(wallMs() - 60_000);
    const steadyPeople = inTurn(peopleBodies(receivedAt, 'steady.propagation.bench.example'));
    const burstPeople = inTurn(peopleBodies(receivedAt, 'burst.propagation.bench.example'));
    const steadies: Steady[] = [];
    const bursts: Burst[] = [];
    for (let rep = 0; rep < ctx.repeat; rep++) {
      await quiesce(sys.pids, settings.quiesceTimeoutS * 1000);
      const s = await steady(ctx, sys, steadyPeople);
      steadies.push(s);
      ctx.log(
        `    rep ${rep + 1} steady ${settings.propagationCount} at ${settings.propagationRate}/s: p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms; ${s.errors} errors, ${s.missing} never reached the chain`,
      );
      await quiesce(sys.pids, settings.quiesceTimeoutS * 1000);
      const b = await burst(ctx, sys, burstPeople);
      bursts.push(b);
      ctx.log(
        `    rep ${rep + 1} burst ${settings.burstS} s at ${settings.clients} clients: ${b.created} created (${b.load.throughput.toFixed(0)}/s), ${b.backlogAtEnd} not yet in the chain at the end, drained in ${Number.isFinite(b.drainS) ? `${b.drainS.toFixed(2)} s` : `more than ${settings.drainTimeoutS} s`}`,
      );
    }
    sys.assertRunning();
    const pick = <T>(xs: T[], f: (x: T) => number) => xs.map(f);
    const drainCap = settings.drainTimeoutS;
    return {
      title: 'propagation — from the 202 of a create to its first audit-chain entry (distributed)',
      method:
        `${settings.propagationCount} creates at a steady ${settings.propagationRate}/s (each sent on its own schedule, not after the previous answer, each of another person) through the gateway; ` +
        'the latency of each is the `recorded_at` of the first entry of its chain in audit-ledger (`sequence = 1`, when the ledger began the append) minus the wall-clock time the client had the 202, ' +
        'polled from the database after the run. Then a burst of creates, each of another person: autocannon at ' +
        `${settings.clients} clients for ${settings.burstS} s, and the time from its end until every request it created (counted in lifecycle-clock's table) has its first chain entry ` +
        `(polled every 50 ms; a burst not drained within ${drainCap} s counts as ${drainCap} s).`,
      figures: [
        figure(
          'steady.p50',
          `steady ${settings.propagationRate}/s: p50`,
          'ms',
          pick(steadies, (s) => s.p50),
        ),
        figure(
          'steady.p99',
          `steady ${settings.propagationRate}/s: p99`,
          'ms',
          pick(steadies, (s) => s.p99),
          { target: atMost(250, 'ms') },
        ),
        figure(
          'steady.max',
          `steady ${settings.propagationRate}/s: max`,
          'ms',
          pick(steadies, (s) => s.max),
        ),
        figure(
          'steady.missing',
          `steady: creates without a chain entry after ${drainCap} s, or failed`,
          'count',
          pick(steadies, (s) => s.missing + s.errors),
          { target: exactly(0, '0') },
        ),
        figure(
          'burst.created',
          `burst ${settings.burstS} s at ${settings.clients} clients: creates`,
          'count',
          pick(bursts, (b) => b.created),
        ),
        figure(
          'burst.backlog',
          'burst: creates not yet in the chain when it ended',
          'count',
          pick(bursts, (b) => b.backlogAtEnd),
        ),
        figure(
          'burst.drain',
          'burst: backlog drained after its end',
          's',
          pick(bursts, (b) => (Number.isFinite(b.drainS) ? b.drainS : drainCap)),
          { target: atMost(5, 's') },
        ),
      ],
      notes: steadies.some((s) => s.maxLagMs > 50) ? [`The client fell up to ${Math.max(...steadies.map((s) => s.maxLagMs)).toFixed(0)} ms behind its schedule (a busy machine).`] : [],
      raw: { steady: steadies, burst: bursts },
    };
  },
};
