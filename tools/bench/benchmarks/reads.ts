import { join } from 'node:path';
import type { AutocannonRequest } from 'autocannon';
import { createBody, createRequests, type Floor, jsonHeaders, peopleBodies, startFloor } from '../harness/api';
import { atLeastFloor, exactly, figure } from '../harness/figures';
import { type LoadSpec, type LoadSummary, measuredLoad } from '../harness/load';
import type { Benchmark } from '../harness/types';
import { quiesce, wallMs } from '../harness/util';

/**
 * reads: `GET /api/v1/requests/:id` and a queue page (`GET /api/v1/requests`, the default page of 25 with its
 * total) through the gateway in distributed mode, against the floor reading one row by id from the same
 * PostgreSQL.
 */

/** GETs of `path(id)` over the ids in turn. */
function cycling(ids: string[], path: (id: string) => string, headers: Record<string, string>): AutocannonRequest[] {
  let i = 0;
  return [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: path(ids[i++ % ids.length]) }) }];
}

type Sample = LoadSummary & { cpuMsPerOk: number };

export const reads: Benchmark = {
  name: 'reads',
  summary: 'GET /requests/:id and a queue page at 16 clients, against a bare http server reading one row',
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const sys = await ctx.distributed();
    const token = sys.keys['bench-reads'];
    const clients = settings.clients;

    // The rows read: created through the API, so that they are what the product stores.
    const seeded = await createRequests(sys.gatewayUrl, token, peopleBodies(new Date(wallMs() - 60_000), 'reads.bench.example'), settings.readsRows, clients);
    if (seeded.ids.length < settings.readsRows) throw new Error(`only ${seeded.ids.length} of ${settings.readsRows} creates were answered 202 (${JSON.stringify(seeded.summary.statusCodes)})`);
    const ids = seeded.ids;

    let floor: Floor | undefined;
    const samples: Record<'floor' | 'byId' | 'page', Sample[]> = { floor: [], byId: [], page: [] };
    try {
      floor = await startFloor({ pg: sys.db.url }, join(ctx.scratch, 'reads'));
      // The same ids in the floor's table, with the body the product was sent.
      await sys
        .pool()
        .query(`INSERT INTO bench_floor.requests (id, tenant_id, body, received_at) SELECT id, 'bench-reads', $2::jsonb, now() FROM unnest($1::uuid[]) AS u(id) ON CONFLICT DO NOTHING`, [
          ids,
          createBody(new Date(wallMs() - 60_000)),
        ]);
      const f = floor;
      const phases: { name: 'floor' | 'byId' | 'page'; spec: (durationS: number) => LoadSpec; pids: number[] }[] = [
        {
          name: 'floor',
          pids: [f.proc.pid],
          spec: (durationS) => ({ url: f.url, connections: clients, durationS, requests: cycling(ids, (id) => `/requests/${id}`, { 'x-tenant-id': 'bench-reads' }) }),
        },
        { name: 'byId', pids: sys.pids, spec: (durationS) => ({ url: sys.gatewayUrl, connections: clients, durationS, requests: cycling(ids, (id) => `/api/v1/requests/${id}`, jsonHeaders(token)) }) },
        { name: 'page', pids: sys.pids, spec: (durationS) => ({ url: sys.gatewayUrl, connections: clients, durationS, path: '/api/v1/requests', headers: jsonHeaders(token) }) },
      ];
      for (let rep = 0; rep < ctx.repeat; rep++) {
        for (const phase of rep % 2 === 0 ? phases : [...phases].reverse()) {
          if (rep === 0 && settings.warmupS > 0) await measuredLoad(phase.spec(settings.warmupS), phase.pids);
          await quiesce([...sys.pids, f.proc.pid], settings.quiesceTimeoutS * 1000);
          const s = await measuredLoad(phase.spec(settings.loadS), phase.pids);
          samples[phase.name].push(s);
          ctx.log(`    rep ${rep + 1} ${phase.name.padEnd(5)}: ${s.throughput.toFixed(0)} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms, errors ${s.errors}`);
        }
      }
    } finally {
      await floor?.proc.stop();
    }
    sys.assertRunning();

    const floorOf = (k: keyof Sample) => ({ label: 'floor', samples: samples.floor.map((s) => s[k] as number) });
    const pick = (xs: Sample[], k: keyof Sample) => xs.map((s) => s[k] as number);
    return {
      title: 'reads — GET /api/v1/requests/:id and a queue page (distributed)',
      method:
        `${settings.readsRows} requests created through the API for one tenant (each of another person), then autocannon at ${clients} clients for ${settings.loadS} s each: ` +
        '`GET /api/v1/requests/:id` over those ids in turn; `GET /api/v1/requests` (the default queue page: 25 rows by receipt, newest first, with the total); ' +
        'and the floor, the bare http server of the intake benchmark reading one row by id (`pg`, pool 10) from the same PostgreSQL, the same ids. ' +
        'Both reads are judged against that one floor, as the issue asks.',
      figures: [
        figure('byId.throughput', `GET /requests/:id, ${clients} clients: throughput`, 'req/s', pick(samples.byId, 'throughput'), { floor: floorOf('throughput'), target: atLeastFloor(0.25) }),
        figure('byId.p50', 'GET /requests/:id: p50', 'ms', pick(samples.byId, 'p50'), { floor: floorOf('p50') }),
        figure('byId.p99', 'GET /requests/:id: p99', 'ms', pick(samples.byId, 'p99'), { floor: floorOf('p99') }),
        figure('byId.errors', 'GET /requests/:id: errors', 'count', pick(samples.byId, 'errors'), { floor: floorOf('errors'), target: exactly(0, '0') }),
        figure('byId.cpu', 'GET /requests/:id: CPU per read, server processes', 'ms', pick(samples.byId, 'cpuMsPerOk'), { floor: floorOf('cpuMsPerOk') }),
        figure('page.throughput', `queue page, ${clients} clients: throughput`, 'req/s', pick(samples.page, 'throughput'), { floor: floorOf('throughput'), target: atLeastFloor(0.25) }),
        figure('page.p50', 'queue page: p50', 'ms', pick(samples.page, 'p50'), { floor: floorOf('p50') }),
        figure('page.p99', 'queue page: p99', 'ms', pick(samples.page, 'p99'), { floor: floorOf('p99') }),
        figure('page.errors', 'queue page: errors', 'count', pick(samples.page, 'errors'), { floor: floorOf('errors'), target: exactly(0, '0') }),
        figure('page.cpu', 'queue page: CPU per read, server processes', 'ms', pick(samples.page, 'cpuMsPerOk'), { floor: floorOf('cpuMsPerOk') }),
      ],
      raw: { seeded: seeded.summary, samples },
    };
  },
};
