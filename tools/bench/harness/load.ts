import autocannon, { type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { cpuMsOfAll } from './util';

/** autocannon runs and what the tables need from them. */

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds; or `amount` requests in all. */
  durationS?: number;
  amount?: number;
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Instead of `body`: each request's own, made as it is sent (a new person each time, say). */
  nextBody?: () => string;
  /** Several requests in turn per connection (paths made per request by setupRequest, answers read by onResponse). */
  requests?: AutocannonRequest[];
}

export interface LoadSummary {
  connections: number;
  durationS: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** Answers with another status, transport errors and timeouts. */
  errors: number;
  non2xx: number;
  transportErrors: number;
  timeouts: number;
  /** 2xx answers per second over the run. */
  throughput: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  statusCodes: Record<string, number>;
}

export function summarize(r: AutocannonResult): LoadSummary {
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  return {
    connections: 0,
    durationS: r.duration,
    ok: r['2xx'],
    errors: r.non2xx + r.errors + r.timeouts,
    non2xx: r.non2xx,
    transportErrors: r.errors,
    timeouts: r.timeouts,
    throughput: r.duration > 0 ? r['2xx'] / r.duration : 0,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    mean: r.latency.mean,
    statusCodes,
  };
}

/** A request's setup that gives it the next body. */
export const bodyFrom =
  (nextBody: () => string): AutocannonRequest['setupRequest'] =>
  (request) => ({ ...request, body: nextBody() });

/** One autocannon run (in this process; the servers are other processes). Latencies are in ms, whole ms. */
export async function runLoad(spec: LoadSpec): Promise<LoadSummary> {
  const result = await autocannon({
    // autocannon takes the path as part of the URL (a top-level `path` is ignored); requests[] carry their own.
    url: spec.path ? `${spec.url}${spec.path}` : spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationS ?? 10 }),
    method: spec.method ?? 'GET',
    headers: spec.headers ?? {},
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(spec.requests ? { requests: spec.requests } : {}),
    ...(spec.nextBody ? { requests: [{ method: spec.method ?? 'GET', path: spec.path, setupRequest: bodyFrom(spec.nextBody) }] } : {}),
    timeout: 10,
  });
  return { ...summarize(result), connections: spec.connections };
}

/** A load run with the CPU time the server processes (`pids`) used during it, per 2xx answer, in all and by process. */
export async function measuredLoad(spec: LoadSpec, pids: readonly number[]): Promise<LoadSummary & { cpuMsPerOk: number; cpuMsPerOkByPid: Record<number, number> }> {
  const before = pids.map((pid) => cpuMsOfAll([pid]));
  const summary = await runLoad(spec);
  const used = pids.map((pid, i) => cpuMsOfAll([pid]) - before[i]);
  const perOk = (ms: number) => (summary.ok > 0 ? ms / summary.ok : NaN);
  return { ...summary, cpuMsPerOk: perOk(used.reduce((a, b) => a + b, 0)), cpuMsPerOkByPid: Object.fromEntries(pids.map((pid, i) => [pid, perOk(used[i])])) };
}
