import { join } from 'node:path';
import { createBody, type Floor, inTurn, jsonHeaders, peopleBodies, startFloor } from '../harness/api';
import { atLeastFloor, atMost, exactly, figure } from '../harness/figures';
import { type LoadSpec, type LoadSummary, measuredLoad } from '../harness/load';
import { type DistributedSystem, startEmbedded } from '../harness/system';
import type { Benchmark, Context, Figure } from '../harness/types';
import { quiesce, wallMs } from '../harness/util';

/**
 * intake: `POST /api/v1/requests` through the gateway at 16 and 64 clients (autocannon, keep-alive, one request
 * in flight per client) against the floor, a bare http server doing one INSERT per request into the same
 * database. Distributed mode (eight processes, PostgreSQL, Kafka) against the floor on the same PostgreSQL
 * (`pg`, pool 10); embedded mode (one process, PGlite) against the floor on PGlite.
 */

export type Sample = LoadSummary & { cpuMsPerOk: number; cpuMsPerOkByPid: Record<number, number> };

/** One system under load: how to load it, its server processes (whose CPU is counted). */
export interface Side {
  /** `ours`, `floor`, or a peer's name: the key of its samples. */
  name: string;
  spec: (connections: number, durationS: number) => LoadSpec;
  pids: () => number[];
  /** A run's summary recounted, for a side whose 2xx alone does not say that it accepted the request (Fides). */
  recount?: (s: Sample) => Sample;
}

/** Our distributed mode's side: the create through the gateway (`nextBody` gives each its body), CPU counted over its eight processes. */
export function distributedSide(sys: DistributedSystem, nextBody: () => string): Side {
  return {
    name: 'ours',
    spec: (connections, durationS) => ({ url: sys.gatewayUrl, connections, durationS, method: 'POST', path: '/api/v1/requests', headers: jsonHeaders(sys.keys['bench-intake']), nextBody }),
    pids: () => sys.pids,
  };
}

/**
 * Every repetition runs every side back to back (the order alternating), each at every client count (the intake
 * benchmark's by default) for `durationS` (BENCH_LOAD_S by default); a warm-up run on each side first.
 */
export async function measure(
  ctx: Context,
  sides: Side[],
  quiet: () => number[],
  { clients = ctx.settings.intakeClients, durationS = ctx.settings.loadS }: { clients?: number[]; durationS?: number } = {},
): Promise<Record<string, Record<number, Sample[]>>> {
  const { settings } = ctx;
  const out: Record<string, Record<number, Sample[]>> = {};
  for (let rep = 0; rep < ctx.repeat; rep++) {
    const order = rep % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      if (rep === 0 && settings.warmupS > 0) await measuredLoad(side.spec(settings.clients, settings.warmupS), side.pids());
      for (const c of clients) {
        const q = await quiesce(quiet(), settings.quiesceTimeoutS * 1000);
        if (!q.idle) ctx.log(`    (still busy after ${(q.waitedMs / 1000).toFixed(0)} s; measuring anyway)`);
        const measured = await measuredLoad(side.spec(c, durationS), side.pids());
        const s = side.recount ? side.recount(measured) : measured;
        ((out[side.name] ??= {})[c] ??= []).push(s);
        ctx.log(`    rep ${rep + 1} ${side.name.padEnd(5)} ${String(c).padStart(3)} clients: ${s.throughput.toFixed(0)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, errors ${s.errors}`);
      }
    }
  }
  return out;
}

/** At 16 clients: throughput over the floor's, and CPU per create across the server processes (docs/performance.md). */
interface IntakeTargets {
  ratio: number;
  cpuMs: number;
}
const INTAKE_TARGETS: Record<'distributed' | 'embedded', IntakeTargets> = { distributed: { ratio: 0.08, cpuMs: 4 }, embedded: { ratio: 0.15, cpuMs: 3 } };

function figuresOf(mode: 'distributed' | 'embedded', samples: Record<string, Record<number, Sample[]>>, clients: number[], targets: IntakeTargets): Figure[] {
  const figures: Figure[] = [];
  for (const c of clients) {
    const ours = samples.ours[c];
    const floor = samples.floor[c];
    const at16 = c === 16;
    const pick = (k: keyof Sample) => ours.map((s) => s[k] as number);
    const floorPick = (k: keyof Sample) => ({ label: 'floor', samples: floor.map((s) => s[k] as number) });
    figures.push(
      figure(`${mode}.c${c}.throughput`, `${mode}, ${c} clients: throughput`, 'req/s', pick('throughput'), { floor: floorPick('throughput'), target: at16 ? atLeastFloor(targets.ratio) : undefined }),
      figure(`${mode}.c${c}.p50`, `${mode}, ${c} clients: p50`, 'ms', pick('p50'), { floor: floorPick('p50') }),
      figure(`${mode}.c${c}.p99`, `${mode}, ${c} clients: p99`, 'ms', pick('p99'), { floor: floorPick('p99'), target: at16 ? atMost(100, 'ms') : undefined }),
      figure(`${mode}.c${c}.errors`, `${mode}, ${c} clients: errors (non-2xx, transport, timeouts)`, 'count', pick('errors'), { floor: floorPick('errors'), target: exactly(0, '0') }),
      figure(`${mode}.c${c}.cpu`, `${mode}, ${c} clients: CPU per create, server processes (no PostgreSQL/Kafka)`, 'ms', pick('cpuMsPerOk'), {
        floor: floorPick('cpuMsPerOk'),
        target: at16 ? atMost(targets.cpuMs, 'ms') : undefined,
      }),
    );
  }
  return figures;
}

/** Where the CPU of a create goes in distributed mode: each service's share, at the first client count. */
export function cpuByService(samples: Sample[], serviceOfPid: Record<number, string>, clients: number): Figure[] {
  return Object.entries(serviceOfPid)
    .map(([pid, service]) =>
      figure(
        `distributed.c${clients}.cpu.${service}`,
        `distributed, ${clients} clients: CPU per create in ${service}`,
        'ms',
        samples.map((s) => s.cpuMsPerOkByPid[Number(pid)]),
      ),
    )
    .sort((a, b) => b.value - a.value);
}

export const intake: Benchmark = {
  name: 'intake',
  summary: 'POST /requests through the gateway at 16 and 64 clients, distributed and embedded, against a bare http + INSERT floor',
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    // Received a minute before the run: a valid provenance time for every create of the run.
    const receivedAt = new Date(wallMs() - 60_000);
    // The floor stores the same body each time; each of our creates is of another person, as a day of requests is
    // (the same person again would make every create a duplicate of all the ones before: the identity benchmark).
    const body = createBody(receivedAt);
    const logDir = join(ctx.scratch, 'intake');
    const raw: Record<string, unknown> = {};
    const figures: Figure[] = [];

    if (settings.intakeEmbedded) {
      const dir = join(ctx.scratch, 'intake-embedded');
      // A smoke run shares one embedded system with the footprint benchmark (one start fewer); a full run starts its
      // own and stops it after, so that it adds no noise to the benchmarks after this one. Both started at once (a
      // process left running when the other fails is stopped at the end of the run).
      // Embedded mode goes first: in a full run the shared distributed system, idle but never at zero CPU, is not
      // started yet. A smoke run judges nothing, and boots distributed mode meanwhile to save its start time.
      if (ctx.smoke) ctx.distributed().catch(() => undefined);
      const own = !ctx.smoke;
      const embeddedPeople = inTurn(peopleBodies(receivedAt, 'intake-embedded.bench.example'));
      const [embedded, pgliteFloor] = await Promise.all([own ? startEmbedded(join(dir, 'system')) : ctx.embedded(), startFloor({ pglite: join(dir, 'floor-pglite') }, dir)]);
      try {
        const floorUrl = pgliteFloor.url;
        const floorPid = pgliteFloor.proc.pid;
        const sides: Side[] = [
          {
            name: 'floor',
            spec: (connections, durationS) => ({
              url: floorUrl,
              connections,
              durationS,
              method: 'POST',
              path: '/requests',
              headers: { 'content-type': 'application/json', 'x-tenant-id': 'bench-intake' },
              body,
            }),
            pids: () => [floorPid],
          },
          {
            name: 'ours',
            spec: (connections, durationS) => ({
              url: embedded.url,
              connections,
              durationS,
              method: 'POST',
              path: '/api/v1/requests',
              headers: jsonHeaders(embedded.keys['bench-intake']),
              nextBody: embeddedPeople,
            }),
            pids: () => [embedded.proc.pid],
          },
        ];
        ctx.log('  embedded mode (PGlite, in-memory bus) against the floor on PGlite');
        const samples = await measure(ctx, sides, () => [embedded.proc.pid, floorPid]);
        if (!embedded.proc.running) throw new Error(`embedded mode ${embedded.proc.exit}:\n${embedded.proc.tail()}`);
        raw.embedded = samples;
        figures.push(...figuresOf('embedded', samples, settings.intakeClients, INTAKE_TARGETS.embedded));
      } finally {
        await pgliteFloor.proc.stop();
        if (own) await embedded.proc.stop();
      }
    }

    const sys = await ctx.distributed();
    let floor: Floor | undefined;
    try {
      floor = await startFloor({ pg: sys.db.url }, logDir);
      const floorUrl = floor.url;
      const floorPid = floor.proc.pid;
      const sides: Side[] = [
        {
          name: 'floor',
          spec: (connections, durationS) => ({
            url: floorUrl,
            connections,
            durationS,
            method: 'POST',
            path: '/requests',
            headers: { 'content-type': 'application/json', 'x-tenant-id': 'bench-intake' },
            body,
          }),
          pids: () => [floorPid],
        },
        distributedSide(sys, inTurn(peopleBodies(receivedAt, 'intake.bench.example'))),
      ];
      ctx.log('  distributed mode (PostgreSQL, Kafka) against the floor on the same PostgreSQL');
      const samples = await measure(ctx, sides, () => [...sys.pids, floorPid]);
      sys.assertRunning();
      raw.distributed = samples;
      figures.push(
        ...figuresOf('distributed', samples, settings.intakeClients, INTAKE_TARGETS.distributed),
        ...cpuByService(samples.ours[settings.intakeClients[0]], sys.serviceOfPid, settings.intakeClients[0]),
      );
    } finally {
      await floor?.proc.stop();
    }

    return {
      title: 'intake — POST /api/v1/requests through the gateway',
      method:
        `autocannon (keep-alive, one request in flight per client) sends creates (DE, web form, no requestType), each of another person, for ${settings.loadS} s at each client count, ` +
        'the floor and the product back to back in every repetition (order alternating), the system left to go idle before each run. ' +
        'Floor: a bare Node http server (tools/bench/harness/floor-server.ts) that parses the same JSON and does one INSERT (uuid, tenant, jsonb, timestamptz): ' +
        '`pg` with a pool of 10 on the same PostgreSQL for distributed mode, PGlite on disk for embedded mode. ' +
        "Throughput counts 2xx answers; latencies are autocannon's (whole ms); CPU is the server processes' user + system time from /proc over the run, per 2xx. " +
        'Embedded mode is measured first, before the distributed system (idle, its eight processes still take CPU) is started.',
      // Distributed mode's table first, as the issue lists it.
      figures: [...figures.filter((f) => f.key.startsWith('distributed.')), ...figures.filter((f) => !f.key.startsWith('distributed.'))],
      raw,
    };
  },
};
