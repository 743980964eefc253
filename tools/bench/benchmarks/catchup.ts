import { dlqTopicOf, RequestEventTypes, Topics } from '@dsar/contracts';
import { schemaNameFor } from '@dsar/platform/persistence';
import { kafkaBrokers } from '@dsar/platform/testing';
import { createRequests, peopleBodies } from '../harness/api';
import { BrokerOutage, brokerFacts, outageRefusal } from '../harness/broker';
import { eventsBetween, TopicOffsets } from '../harness/consumer-offsets';
import { atLeast, atMost, exactly, figure } from '../harness/figures';
import type { DistributedSystem } from '../harness/system';
import type { Benchmark, Context, Figure } from '../harness/types';
import { type Answers, SteadyCreates } from '../harness/steady-creates';
import { quiesce, sleep, wallMs } from '../harness/util';
import { type ConsumerDrain, type Consumers, drain, outboxNow, type RelayCatchUp, type Sample, SAMPLE_MS, settle, settled } from './catchup-drain';

/**
 * catchup: how fast each consumer of `dsar.request.v1` drains a backlog, in distributed mode. (1) An outage: creates
 * at a steady rate through the gateway (each commits in lifecycle-clock with its event in the outbox), the broker
 * stopped for a minute meanwhile (the relay cannot publish), then started again while the creates go on; (2) a burst
 * of creates as fast as the gateway takes them. From the broker's return (the burst's end): when the relay has
 * published every event created up to then, and when each consumer group has committed past all of them.
 */

const TENANT = 'bench-catchup';
const TOPIC = Topics.request;
const CREATED = RequestEventTypes.created;
const REQUESTS = `"${schemaNameFor('lifecycle-clock')}".requests`;
const AUDIT = `"${schemaNameFor('audit-ledger')}".audit_entries`;
/** The issue's targets: each consumer drains at least this many events a second… */
const RATE_TARGET = 2000;
/** …and the backlog of the outage within this many seconds of the broker's return. */
const OUTAGE_DRAIN_TARGET_S = 15;

const serviceOf = (sys: DistributedSystem, group: string): string => group.slice(sys.groupPrefix.length + 1);

/** Inbox rows of `request.created` events per service: a row commits with the consumer's effect of the event. */
async function inboxCounts(sys: DistributedSystem, consumers: Map<string, string>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [service, group] of consumers) {
    const { rows } = await sys.pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schemaNameFor(service)}".inbox WHERE consumer = $1 AND event_type = $2`, [group, CREATED]);
    out.set(service, rows[0].n);
  }
  return out;
}

/** Messages on the topic's dead-letter twin so far. */
async function deadLetters(sys: DistributedSystem, offsets: TopicOffsets): Promise<number> {
  return eventsBetween({}, await offsets.end(sys.topicPrefix + dlqTopicOf(TOPIC)));
}

/**
 * The requests of a phase that lifecycle-clock recorded, once their number has stopped growing: a create the gateway
 * answered 504 (its 10 s deadline passed) may still be recorded afterwards, and must not run into the next phase.
 * Each phase's creates carry their own intake time.
 */
async function recorded(sys: DistributedSystem, receivedAt: Date, timeoutMs: number): Promise<number> {
  const count = async () => (await sys.pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${REQUESTS} WHERE tenant_id = $1 AND intake_received_at = $2`, [TENANT, receivedAt])).rows[0].n;
  const deadline = performance.now() + timeoutMs;
  let last = await count();
  for (;;) {
    await sleep(2000);
    const now = await count();
    if (now === last || performance.now() > deadline) return now;
    last = now;
  }
}

/**
 * Nothing lost, nothing twice: every accepted create has the first entry of its chain in audit-ledger and no other
 * (nothing else happens to these requests); every other service that acts on `request.created` has an inbox row for
 * each of those events (the inbox's key admits one; the effect commits with it); nothing went to the dead-letter topic.
 * The count of what is off, with a line each.
 */
async function effects(sys: DistributedSystem, offsets: TopicOffsets, consumers: Consumers, ids: string[], deadLettersBefore: number): Promise<{ off: number; lines: string[] }> {
  const lines: string[] = [];
  const { rows } = await sys
    .pool()
    .query<{ event_id: string | null; entries: number }>(
      `SELECT (array_agg(event_id) FILTER (WHERE sequence = 1 AND event_type = $3))[1]::text AS event_id, count(*)::int AS entries FROM ${AUDIT} WHERE tenant_id = $1 AND request_id = ANY($2::text[]) GROUP BY request_id`,
      [TENANT, ids, CREATED],
    );
  const created = rows.filter((r) => r.event_id !== null).map((r) => r.event_id as string);
  const extra = rows.reduce((n, r) => n + r.entries, 0) - created.length;
  if (created.length !== ids.length) lines.push(`${ids.length - created.length} of ${ids.length} accepted creates have no chain entry for their creation`);
  if (extra !== 0) lines.push(`${extra} chain entries besides the creations`);
  let off = ids.length - created.length + Math.abs(extra);
  for (const [service, group] of consumers.groups) {
    if (!consumers.handling.has(service) || service === 'audit-ledger') continue;
    const { rows: inbox } = await sys
      .pool()
      .query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schemaNameFor(service)}".inbox WHERE consumer = $1 AND event_id = ANY($2::uuid[])`, [group, created]);
    if (inbox[0].n !== created.length) lines.push(`${service}: inbox rows for ${inbox[0].n} of the ${created.length} creations`);
    off += created.length - inbox[0].n;
  }
  const deadLettered = (await deadLetters(sys, offsets)) - deadLettersBefore;
  if (deadLettered > 0) lines.push(`${deadLettered} events went to ${dlqTopicOf(TOPIC)}`);
  return { off: off + deadLettered, lines };
}

interface Phase {
  /** Creates accepted (202) and refused or failed. */
  created: number;
  refused: number;
  /** Requests lifecycle-clock recorded: more than were accepted when a create answered 504 was recorded all the same. */
  recorded: number;
  /** Outage: seconds from the stop until the broker was ready again. Burst: seconds of the burst. */
  seconds: number;
  relay: RelayCatchUp;
  consumers: ConsumerDrain[];
  timeline: Sample[];
  /** Effects lost or doubled (see `effects`), with a line each. */
  off: number;
  offLines: string[];
  maxLagMs?: number;
  /** Outage: the steady creates' answers before the stop, while the broker was away, and after its return. */
  creates?: Record<'before' | 'away' | 'after', Answers>;
}

async function outagePhase(ctx: Context, sys: DistributedSystem, consumers: Consumers, rep: number, broker: BrokerOutage): Promise<Phase> {
  const s = ctx.settings;
  const topic = sys.topicPrefix + TOPIC;
  let offsets = await TopicOffsets.open(kafkaBrokers(), topic);
  const deadLettersBefore = await deadLetters(sys, offsets);
  // This client's connections die with the broker: a new one after its return.
  await offsets.close();
  const receivedAt = new Date(wallMs() - 60_000);
  const steady = new SteadyCreates(sys.gatewayUrl, sys.keys[TENANT], s.catchupRate, peopleBodies(receivedAt, `outage-${rep}.catchup.example`));
  const startedAt = performance.now();
  let stoppedAt = NaN;
  let t0 = NaN;
  let measured: Awaited<ReturnType<typeof drain>>;
  try {
    await sleep(s.catchupLeadS * 1000);
    stoppedAt = performance.now();
    await broker.stop();
    ctx.log(`    rep ${rep} outage: broker stopped (${((performance.now() - stoppedAt) / 1000).toFixed(1)} s), ${s.catchupOutageS} s away while the creates go on`);
    await sleep(s.catchupOutageS * 1000);
    await broker.start();
    t0 = performance.now();
    const outbox = await outboxNow(sys);
    offsets = await settled('the admin client', () => TopicOffsets.open(kafkaBrokers(), topic));
    measured = await drain(s.catchupDrainTimeoutS * 1000, sys, offsets, consumers, t0, outbox);
  } finally {
    await steady.stop();
    await broker.restore();
  }
  try {
    const timeoutMs = s.catchupDrainTimeoutS * 1000;
    const recordedNow = await recorded(sys, receivedAt, timeoutMs);
    if (!(await settle(timeoutMs, sys, offsets, consumers))) ctx.log(`    (not settled within ${s.catchupDrainTimeoutS} s after the creates stopped)`);
    const { off, lines } = await effects(sys, offsets, consumers, steady.ids, deadLettersBefore);
    const creates = { before: steady.between(startedAt, stoppedAt), away: steady.between(stoppedAt, t0), after: steady.between(t0, Infinity) };
    return {
      created: steady.ids.length,
      refused: steady.refused,
      recorded: recordedNow,
      seconds: (t0 - stoppedAt) / 1000,
      ...measured,
      off,
      offLines: lines,
      maxLagMs: steady.maxLagMs,
      creates,
    };
  } finally {
    await offsets.close();
  }
}

async function burstPhase(ctx: Context, sys: DistributedSystem, consumers: Consumers, rep: number): Promise<Phase> {
  const s = ctx.settings;
  const offsets = await TopicOffsets.open(kafkaBrokers(), sys.topicPrefix + TOPIC);
  try {
    const deadLettersBefore = await deadLetters(sys, offsets);
    const receivedAt = new Date(wallMs() - 60_000);
    const { ids, summary } = await createRequests(sys.gatewayUrl, sys.keys[TENANT], peopleBodies(receivedAt, `burst-${rep}.catchup.example`), s.catchupBurst, s.clients);
    const t0 = performance.now();
    const timeoutMs = s.catchupDrainTimeoutS * 1000;
    const measured = await drain(timeoutMs, sys, offsets, consumers, t0, await outboxNow(sys));
    const recordedNow = await recorded(sys, receivedAt, timeoutMs);
    if (!(await settle(timeoutMs, sys, offsets, consumers))) ctx.log(`    (not settled within ${s.catchupDrainTimeoutS} s after the burst)`);
    const { off, lines } = await effects(sys, offsets, consumers, ids, deadLettersBefore);
    return { created: ids.length, refused: s.catchupBurst - ids.length, recorded: recordedNow, seconds: summary.durationS, ...measured, off, offLines: lines };
  } finally {
    await offsets.close();
  }
}

/**
 * A few creates first: the groups of the topic are found from their members' assignments, and the services that act
 * on `request.created` from whose inbox records them.
 */
async function findConsumers(ctx: Context, sys: DistributedSystem): Promise<Consumers> {
  const offsets = await TopicOffsets.open(kafkaBrokers(), sys.topicPrefix + TOPIC);
  try {
    const groups = new Map((await offsets.groupsReading(`${sys.groupPrefix}.`)).map((g) => [serviceOf(sys, g), g]));
    if (groups.size === 0) throw new Error(`no consumer group reads ${TOPIC}`);
    const consumers: Consumers = { groups, handling: new Set() };
    const before = await inboxCounts(sys, groups);
    const { ids } = await createRequests(sys.gatewayUrl, sys.keys[TENANT], peopleBodies(new Date(wallMs() - 60_000), 'warmup.catchup.example'), 10, 2);
    if (ids.length !== 10) throw new Error(`${10 - ids.length} of 10 creates failed`);
    if (!(await settle(ctx.settings.catchupDrainTimeoutS * 1000, sys, offsets, consumers))) throw new Error(`the consumers did not handle 10 creates within ${ctx.settings.catchupDrainTimeoutS} s`);
    const after = await inboxCounts(sys, groups);
    for (const service of groups.keys()) if ((after.get(service) ?? 0) > (before.get(service) ?? 0)) consumers.handling.add(service);
    return consumers;
  } finally {
    await offsets.close();
  }
}

/** The relay's backlog over the time it took from the start; NaN when there was none to time. */
const relayRate = (p: Phase): number => (p.relay.backlog > 0 && p.relay.catchUpS > 0 ? p.relay.backlog / p.relay.catchUpS : NaN);

function phaseLog(ctx: Context, name: string, rep: number, p: Phase): void {
  const s = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} s` : 'not within the timeout');
  const rate = (v: number) => (Number.isFinite(v) ? `${v.toFixed(0)}/s` : '–');
  ctx.log(
    `    rep ${rep} ${name}: ${p.created} creates (${p.refused} refused, ${p.recorded} recorded) in ${p.seconds.toFixed(1)} s; relay: ${p.relay.backlog} rows waiting, published ${s(p.relay.catchUpS)} (${rate(relayRate(p))}); ${p.off} effects lost or doubled`,
  );
  for (const c of p.consumers) {
    const progress = c.backlog === 0 ? 'nothing to drain' : `first commit ${s(c.firstCommitS)}, drained ${s(c.drainS)}, ${c.rateAtLeast ? '≥ ' : ''}${rate(c.rate)}`;
    ctx.log(`      ${c.service.padEnd(20)} ${String(c.backlog).padStart(6)} events, ${progress}`);
  }
  for (const l of p.offLines) ctx.log(`      ! ${l}`);
  if (p.creates) ctx.log(`      creates ${createsLine(p.creates)}`);
}

function createsLine(creates: NonNullable<Phase['creates']>): string {
  const part = (name: string, c: Answers) => {
    const by = Object.entries(c.refusedBy)
      .map(([status, n]) => `${n} ${status}`)
      .join(', ');
    return `${name} ${c.accepted} accepted${c.accepted > 0 ? ` (p50 ${c.p50.toFixed(0)} ms, p99 ${c.p99.toFixed(0)} ms)` : ''}, ${c.refused} refused${by ? ` (${by})` : ''}`;
  };
  return `${part('before the stop', creates.before)}; ${part('while the broker was away', creates.away)}; ${part('after its return', creates.after)}`;
}

function phaseFigures(name: 'outage' | 'burst', phases: Phase[], timeoutS: number): Figure[] {
  const figures: Figure[] = [
    figure(
      `${name}.created`,
      `${name}: creates accepted`,
      'count',
      phases.map((p) => p.created),
    ),
    figure(
      `${name}.refused`,
      `${name}: creates refused or failed`,
      'count',
      phases.map((p) => p.refused),
      { target: exactly(0, '0') },
    ),
    name === 'outage'
      ? figure(
          'outage.away',
          'outage: broker away (stop until ready again)',
          's',
          phases.map((p) => p.seconds),
        )
      : figure(
          'burst.throughput',
          'burst: creates per second',
          'req/s',
          phases.map((p) => p.created / p.seconds),
        ),
    figure(
      `${name}.relay.backlog`,
      `${name}: outbox rows not yet published at the start`,
      'count',
      phases.map((p) => p.relay.backlog),
    ),
    figure(
      `${name}.relay.catchup`,
      `${name}: relay published them after`,
      's',
      phases.map((p) => (Number.isFinite(p.relay.catchUpS) ? p.relay.catchUpS : timeoutS)),
    ),
    figure(`${name}.relay.rate`, `${name}: relay rows/s from the start until published`, 'events/s', phases.map(relayRate)),
  ];
  const services = [...new Set(phases.flatMap((p) => p.consumers.map((c) => c.service)))];
  for (const service of services) {
    const of = (pick: (c: ConsumerDrain) => number) => phases.map((p) => pick(p.consumers.find((c) => c.service === service) as ConsumerDrain));
    figures.push(
      figure(
        `${name}.${service}.backlog`,
        `${name}: ${service} backlog`,
        'count',
        of((c) => c.backlog),
      ),
      figure(
        `${name}.${service}.drain`,
        `${name}: ${service} drained after`,
        's',
        of((c) => (Number.isFinite(c.drainS) ? c.drainS : timeoutS)),
        name === 'outage' ? { target: atMost(OUTAGE_DRAIN_TARGET_S, 's') } : {},
      ),
      figure(
        `${name}.${service}.rate`,
        `${name}: ${service} events/s while draining`,
        'events/s',
        of((c) => c.rate),
        name === 'outage' ? { target: atLeast(RATE_TARGET, 'events/s') } : {},
      ),
    );
  }
  figures.push(
    figure(
      `${name}.lost`,
      `${name}: effects lost or doubled`,
      'count',
      phases.map((p) => p.off),
      { target: exactly(0, '0') },
    ),
  );
  return figures;
}

export const catchup: Benchmark = {
  name: 'catchup',
  summary: 'each consumer draining its backlog after a Kafka outage under steady creates, and after a burst of creates (distributed; stops the broker)',
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const s = ctx.settings;
    const reps = Math.min(ctx.repeat, s.catchupRepeat);
    const notes: string[] = [];
    let refusal: string | undefined;
    if (s.catchupOutageS > 0) refusal = outageRefusal(await brokerFacts());
    else notes.push('No outage (BENCH_CATCHUP_OUTAGE_S=0; a smoke run never stops the broker that the tests beside it share): the burst only.');
    if (refusal) {
      ctx.log(`  no outage: ${refusal}`);
      notes.push(`No outage: ${refusal}.`);
    }
    const outage = s.catchupOutageS > 0 && !refusal;
    const sys = await ctx.distributed();
    const broker = new BrokerOutage();
    ctx.defer(() => broker.restore());
    const consumers = await findConsumers(ctx, sys);
    ctx.log(`  consumers of ${TOPIC}: ${[...consumers.groups.keys()].map((svc) => `${svc}${consumers.handling.has(svc) ? ' (acts on request.created)' : ''}`).join(', ')}`);
    const outages: Phase[] = [];
    const bursts: Phase[] = [];
    for (let rep = 1; rep <= reps; rep++) {
      if (outage) {
        await quiesce(sys.pids, s.quiesceTimeoutS * 1000);
        const p = await outagePhase(ctx, sys, consumers, rep, broker);
        outages.push(p);
        phaseLog(ctx, 'outage', rep, p);
      }
      await quiesce(sys.pids, s.quiesceTimeoutS * 1000);
      const b = await burstPhase(ctx, sys, consumers, rep);
      bursts.push(b);
      phaseLog(ctx, 'burst', rep, b);
    }
    sys.assertRunning();
    for (const p of [...outages, ...bursts]) notes.push(...p.offLines);
    outages.forEach((p, i) => p.creates && notes.push(`Outage ${i + 1}, the steady creates: ${createsLine(p.creates)}.`));
    for (const [name, phases] of [
      ['Outage', outages],
      ['Burst', bursts],
    ] as const) {
      phases.forEach((p, i) => {
        if (p.recorded > p.created) notes.push(`${name} ${i + 1}: ${p.recorded - p.created} creates answered with an error were recorded all the same.`);
        const bounds = p.consumers.filter((c) => c.rateAtLeast).map((c) => c.service);
        if (bounds.length > 0) notes.push(`${name} ${i + 1}: ${bounds.join(', ')} went past the whole backlog within one commit; the events/s are a lower bound.`);
      });
    }
    const lag = Math.max(0, ...outages.map((p) => p.maxLagMs ?? 0));
    if (lag > 100) notes.push(`The steady client fell up to ${lag.toFixed(0)} ms behind its schedule (a busy machine).`);
    const consumerList = [...consumers.groups.keys()].map((svc) => `${svc}${consumers.handling.has(svc) ? '' : ' (goes past request.created)'}`).join(', ');
    return {
      title: 'catchup — each consumer draining a backlog after a Kafka outage and after a burst (distributed)',
      method:
        (outage
          ? `Outage: creates at a steady ${s.catchupRate}/s through the gateway (each from another person), the broker stopped after ${s.catchupLeadS} s (\`deploy/local/infra.sh kafka-stop\`) for ${s.catchupOutageS} s while they go on, then started; the clock starts once it is ready, and the creates go on until every consumer has drained. `
          : '') +
        `Burst: ${s.catchupBurst.toLocaleString('en-US')} creates at ${s.clients} clients (autocannon, a fixed count); the clock starts at its last answer. ` +
        `From the start, every ${SAMPLE_MS} ms: the relay has caught up once every outbox row recorded until then is published; the topic's end offsets at that moment are the backlog's end, and a consumer has drained once its group's committed offsets reach them ` +
        '(a service commits an offset only after the transactions of every event before it, every 500 ms: what a restarted consumer resumes from). ' +
        "A consumer's backlog is the messages between its committed offsets at the start and that end; its events/s are the messages it went past between its first and its last commit after the start, over that span (after an outage, the wait to rejoin its group is not in it). " +
        `When a consumer went past its whole backlog within one commit, its events/s are a lower bound: the backlog over the time since the last sample where it had not moved, plus one commit interval. A backlog under 1,000 events is not timed (it is gone within a commit or two). Consumers of \`${TOPIC}\`: ${consumerList}. Afterwards: the first entry of each accepted create's chain in audit-ledger and no other, an inbox row for each of those creations in every other service that acts on request.created, nothing on the dead-letter topic. ` +
        `BENCH_CATCHUP_REPEAT (${s.catchupRepeat}) caps the run's --repeat.`,
      repetitions: reps,
      figures: [...(outage ? phaseFigures('outage', outages, s.catchupDrainTimeoutS) : []), ...phaseFigures('burst', bursts, s.catchupDrainTimeoutS)],
      notes,
      raw: { consumers: Object.fromEntries(consumers.groups), handling: [...consumers.handling], outage: outages, burst: bursts },
    };
  },
};
