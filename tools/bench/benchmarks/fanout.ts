import { Kafka, logLevel } from 'kafkajs';
import { type Connector, kafkaFeed, pullFeed, runConnector, silentLogger, type TaskFeed } from '@dsar/connector-sdk';
import { schemaNameFor } from '@dsar/platform/persistence';
import { kafkaBrokers } from '@dsar/platform/testing';
import { createRequests, jsonHeaders, peopleBodies } from '../harness/api';
import { exactly, figure } from '../harness/figures';
import type { DistributedSystem } from '../harness/system';
import type { Benchmark, Context } from '../harness/types';
import { percentileOf, quiesce, sleep, wallMs } from '../harness/util';

/**
 * fanout: a batch of requests fanned out to five data systems each (three push systems on the task topic, two pull
 * systems listing their tasks over HTTP), in distributed mode, with a connector of the SDK per system answering
 * every task at once. From the first acknowledgement (the transition that fans a request out): how long until every
 * task exists (queued), and until every answer is recorded; and per task, from its creation to its answer.
 */

const TENANT = 'bench-fanout';
const TASKS = `"${schemaNameFor('fulfilment-delivery')}".data_system_task`;
const SYSTEMS: Array<{ key: string; mode: 'push' | 'pull' }> = [
  { key: 'fan-push-1', mode: 'push' },
  { key: 'fan-push-2', mode: 'push' },
  { key: 'fan-push-3', mode: 'push' },
  { key: 'fan-pull-1', mode: 'pull' },
  { key: 'fan-pull-2', mode: 'pull' },
];
/** Tasks each connector works on at once, and acknowledgements sent at once. */
const CONCURRENCY = 8;
const ACK_CONNECTIONS = 16;

interface Repetition {
  requests: number;
  tasks: number;
  answered: number;
  /** From the first acknowledgement sent to the last one answered (202). */
  ackS: number;
  /** From the first acknowledgement to the last task's creation / answer (database times). */
  queuedAllS: number;
  answeredAllS: number;
  /** Per task, creation to answer. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  claimsRefused: number;
}

async function registerSystems(sys: DistributedSystem, token: string): Promise<void> {
  for (const { key, mode } of SYSTEMS) {
    const res = await fetch(`${sys.gatewayUrl}/api/v1/data-systems/${key}`, {
      method: 'PUT',
      headers: jsonHeaders(token),
      body: JSON.stringify({ displayName: key, owner: { email: `${key}@bench.example` }, actions: ['access'], identityTypes: ['email'], mode }),
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`PUT /data-systems/${key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
}

async function startConnectors(sys: DistributedSystem, token: string): Promise<Connector[]> {
  const kafka = new Kafka({ clientId: 'dsar-bench-fanout', brokers: kafkaBrokers().split(','), logLevel: logLevel.NOTHING });
  const feedOf = (key: string, mode: 'push' | 'pull'): TaskFeed =>
    mode === 'push'
      ? kafkaFeed({ kafka, topicPrefix: sys.topicPrefix, groupId: `${sys.topicPrefix}bench-${key}`, tenantId: TENANT, catchUpIntervalMs: 0, joinTimeoutMs: 60_000 })
      : pullFeed({ intervalMs: 250, limit: 100 });
  return Promise.all(
    SYSTEMS.map(({ key, mode }) =>
      runConnector({
        baseUrl: `${sys.gatewayUrl}/api/v1`,
        apiKey: token,
        systemKey: key,
        worker: `bench-${key}`,
        feed: feedOf(key, mode),
        concurrency: CONCURRENCY,
        handler: () => ({ outcome: 'complete', note: 'bench' }),
        log: silentLogger,
      }),
    ),
  );
}

/** Acknowledges every request (`connections` at a time): each becomes in_progress, which fans it out. */
async function acknowledgeAll(sys: DistributedSystem, token: string, ids: string[]): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      const res = await fetch(`${sys.gatewayUrl}/api/v1/requests/${id}/acknowledgements`, { method: 'POST', headers: jsonHeaders(token), body: '{}', signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status !== 202) failed++;
    }
  };
  await Promise.all(Array.from({ length: ACK_CONNECTIONS }, worker));
  return failed;
}

async function repetition(ctx: Context, sys: DistributedSystem, token: string, connectors: Connector[]): Promise<Repetition> {
  const n = ctx.settings.fanoutRequests;
  // Each of another person: one person's requests would be duplicates of the first, which fan out nothing while marked.
  const { ids } = await createRequests(sys.gatewayUrl, token, peopleBodies(new Date(wallMs() - 60_000), 'fanout.bench.example'), n, 16);
  if (ids.length !== n) throw new Error(`${n - ids.length} of ${n} creates failed`);
  await quiesce(sys.pids, ctx.settings.quiesceTimeoutS * 1000);
  const refusedBefore = connectors.reduce((sum, c) => sum + c.stats.notClaimable, 0);
  const t0 = wallMs();
  const failed = await acknowledgeAll(sys, token, ids);
  if (failed > 0) throw new Error(`${failed} of ${n} acknowledgements failed`);
  const ackS = (wallMs() - t0) / 1000;
  const want = n * SYSTEMS.length;
  const deadline = performance.now() + ctx.settings.fanoutTimeoutS * 1000;
  let counts = { tasks: 0, answered: 0 };
  while (performance.now() < deadline) {
    const { rows } = await sys
      .pool()
      .query<{ tasks: number; answered: number }>(`SELECT count(*)::int AS tasks, count(answered_at)::int AS answered FROM ${TASKS} WHERE tenant_id = $1 AND request_id = ANY($2::uuid[])`, [
        TENANT,
        ids,
      ]);
    counts = rows[0];
    if (counts.answered >= want) break;
    await sleep(100);
  }
  const { rows } = await sys.pool().query<{ created: number; answered: number; latency: number | null }>(
    `SELECT (extract(epoch FROM created_at) * 1000)::float8 AS created, (extract(epoch FROM answered_at) * 1000)::float8 AS answered,
              (extract(epoch FROM answered_at - created_at) * 1000)::float8 AS latency
         FROM ${TASKS} WHERE tenant_id = $1 AND request_id = ANY($2::uuid[])`,
    [TENANT, ids],
  );
  const latencies = rows.filter((r) => r.latency !== null).map((r) => Number(r.latency));
  const lastCreated = Math.max(...rows.map((r) => Number(r.created)));
  const lastAnswered = Math.max(...rows.filter((r) => r.answered !== null).map((r) => Number(r.answered)));
  return {
    requests: n,
    tasks: rows.length,
    answered: latencies.length,
    ackS,
    queuedAllS: (lastCreated - t0) / 1000,
    answeredAllS: counts.answered >= want ? (lastAnswered - t0) / 1000 : NaN,
    latencyP50Ms: percentileOf(latencies, 0.5),
    latencyP99Ms: percentileOf(latencies, 0.99),
    claimsRefused: connectors.reduce((sum, c) => sum + c.stats.notClaimable, 0) - refusedBefore,
  };
}

export const fanout: Benchmark = {
  name: 'fanout',
  summary: 'requests fanned out to 5 data systems each: until every task is queued, until every answer is recorded (SDK connectors answering at once)',
  inDefault: false,
  needsInfra: true,
  async run(ctx) {
    const sys = await ctx.distributed();
    const token = sys.keys[TENANT];
    await registerSystems(sys, token);
    const connectors = await startConnectors(sys, token);
    const reps: Repetition[] = [];
    try {
      for (let r = 0; r < ctx.repeat; r++) {
        const rep = await repetition(ctx, sys, token, connectors);
        ctx.log(
          `  fanout #${r + 1}: ${rep.requests} requests, ${rep.tasks} tasks, ${rep.answered} answered; acks ${rep.ackS.toFixed(1)} s, all queued ${rep.queuedAllS.toFixed(1)} s, all answered ${rep.answeredAllS.toFixed(1)} s, task p50 ${Math.round(rep.latencyP50Ms)} ms p99 ${Math.round(rep.latencyP99Ms)} ms`,
        );
        reps.push(rep);
      }
    } finally {
      await Promise.all(connectors.map((c) => c.stop({ timeoutMs: 5000 })));
    }
    const n = ctx.settings.fanoutRequests;
    const want = n * SYSTEMS.length;
    const of = (pick: (r: Repetition) => number) => reps.map(pick);
    return {
      title: `fanout — ${n.toLocaleString('en-US')} requests to ${SYSTEMS.length} data systems each (distributed)`,
      method:
        `${n.toLocaleString('en-US')} requests are created, each of another person, then acknowledged (${ACK_CONNECTIONS} at a time): each becomes \`in_progress\`, and fulfilment-delivery creates one task per system (three push systems on dsar.task.v1, two pull systems). ` +
        `A connector of \`@dsar/connector-sdk\` per system (${CONCURRENCY} tasks at once; push: kafkaFeed, pull: pullFeed every 250 ms) claims each task and answers \`complete\` at once. ` +
        'Times run from the first acknowledgement sent; "queued" and "answered" are the last task\'s `created_at` and `answered_at` in the database.',
      figures: [
        figure(
          'fanout.tasks',
          `tasks created (one per request and system: ${want.toLocaleString('en-US')})`,
          'tasks',
          of((r) => r.tasks),
          { target: exactly(want) },
        ),
        figure(
          'fanout.answered',
          'answers recorded',
          'tasks',
          of((r) => r.answered),
          { target: exactly(want) },
        ),
        figure(
          'fanout.acks',
          `all ${n.toLocaleString('en-US')} acknowledgements answered`,
          's',
          of((r) => r.ackS),
        ),
        figure(
          'fanout.queued_all',
          'every task queued, from the first acknowledgement',
          's',
          of((r) => r.queuedAllS),
        ),
        figure(
          'fanout.answered_all',
          'every answer recorded, from the first acknowledgement',
          's',
          of((r) => r.answeredAllS),
        ),
        figure(
          'fanout.task_p50',
          'one task, created to answered, p50',
          'ms',
          of((r) => r.latencyP50Ms),
        ),
        figure(
          'fanout.task_p99',
          'one task, created to answered, p99',
          'ms',
          of((r) => r.latencyP99Ms),
        ),
      ],
      notes: [`Claims refused (409: another connector instance or a waiting task), per repetition: ${of((r) => r.claimsRefused).join(', ')}.`],
      raw: { repetitions: reps },
    };
  },
};
