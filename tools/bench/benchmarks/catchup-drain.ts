import { schemaNameFor } from '@dsar/platform/persistence';
import { eventsBetween, type Offsets, reached, type TopicOffsets } from '../harness/consumer-offsets';
import type { DistributedSystem } from '../harness/system';
import { describeError, sleep } from '../harness/util';

/**
 * The catchup benchmark's measurement: from a start (the broker back, a burst's end), the relay publishing
 * lifecycle-clock's outbox and the consumer groups of its topic committing past what it published.
 */

/** The outbox of the topic's events (lifecycle-clock writes every event of dsar.request.v1). */
const OUTBOX = `"${schemaNameFor('lifecycle-clock')}".outbox`;
/** How often a drain is sampled. */
export const SAMPLE_MS = 200;
/** How often the services' consumers commit what they have handled (OFFSET_COMMIT_INTERVAL_MS of libs/platform/messaging/src/consumer-progress.ts). */
const COMMIT_INTERVAL_MS = 500;
/**
 * The smallest backlog whose rate is timed: a consumer at the 2,000 events/s goes past it in one commit
 * interval. A smaller one is gone within a commit or two, and its rate would be the sampling's, not the consumer's.
 */
const TIMED_BACKLOG = 1000;

/** The consumer groups of the topic, by service. */
export interface Consumers {
  groups: Map<string, string>;
  /** The services whose inbox records `request.created` (those that act on it; the others only go past it). */
  handling: Set<string>;
}

/** The relay's backlog: the outbox's last row now, and how many rows up to it are not published yet. */
export async function outboxNow(sys: DistributedSystem): Promise<{ lastId: string; waiting: number }> {
  const { rows } = await sys.pool().query<{ last: string }>(`SELECT coalesce(max(id), 0)::text AS last FROM ${OUTBOX}`);
  return { lastId: rows[0].last, waiting: await unpublished(sys, rows[0].last) };
}

async function unpublished(sys: DistributedSystem, upToId: string): Promise<number> {
  const { rows } = await sys.pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM ${OUTBOX} WHERE processed_at IS NULL AND id <= $1::bigint`, [upToId]);
  return rows[0].n;
}

/** An admin call right after the broker's return can fail while it settles (leaders, the group coordinator): tried again. */
export async function settled<T>(what: string, call: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const t0 = performance.now();
  for (;;) {
    try {
      return await call();
    } catch (e) {
      if (performance.now() - t0 > timeoutMs) throw new Error(`${what}: ${describeError(e)}`);
      await sleep(SAMPLE_MS);
    }
  }
}

export interface ConsumerDrain {
  service: string;
  /** Messages of the topic past its committed offsets at the start, up to the end of what was created until then. */
  backlog: number;
  /** Seconds from the start until its committed offsets reached that end; NaN when not within the timeout. */
  drainS: number;
  /** Seconds from the start to its first commit past where it stood (after an outage: once it has joined its group again). */
  firstCommitS: number;
  /**
   * Messages it went past from its first commit to its last, per second of that span. When it drained at its first
   * commit, a lower bound: the backlog over the time since the last sample where it had not moved, plus one commit
   * interval (the work that commit covers may have begun that much earlier). NaN when the backlog was too small to
   * time (TIMED_BACKLOG) or did not drain.
   */
  rate: number;
  /** The rate is that lower bound. */
  rateAtLeast: boolean;
}

export interface RelayCatchUp {
  /** Outbox rows not yet published at the start. */
  backlog: number;
  /** Seconds from the start until every row recorded until then was published; NaN when not within the timeout. */
  catchUpS: number;
}

/** One sample of a drain: seconds from the start, the relay's rows still waiting, and the messages each consumer has committed past since the start. */
export interface Sample {
  s: number;
  waiting: number;
  passed: Record<string, number>;
}

/**
 * From `t0` (the broker back, or the burst's end), every SAMPLE_MS: the relay's progress on the rows recorded until
 * then; once it has published them, the topic's end offsets at that moment are the backlog's end (a few events created
 * since may be in it: the drain is timed on a slightly larger backlog, never a smaller one); then each group's
 * committed offsets until they reach that end.
 */
export async function drain(
  timeoutMs: number,
  sys: DistributedSystem,
  offsets: TopicOffsets,
  consumers: Consumers,
  t0: number,
  outbox: { lastId: string; waiting: number },
): Promise<{ relay: RelayCatchUp; consumers: ConsumerDrain[]; timeline: Sample[] }> {
  const groups = [...consumers.groups];
  const start = new Map<string, Offsets>();
  for (const [service, group] of groups) start.set(service, await settled(`the offsets of ${group}`, () => offsets.committed(group)));
  const first = new Map<string, { at: number; offsets: Offsets }>();
  /** The last sample where a group had not moved since the start. */
  const idle = new Map<string, number>(groups.map(([service]) => [service, t0]));
  const drained = new Map<string, { at: number; offsets: Offsets }>();
  const timeline: Sample[] = [];
  let relayDoneAt: number | undefined;
  let end: Offsets | undefined;
  const deadline = t0 + timeoutMs;
  while (performance.now() < deadline && !(end && drained.size === groups.length)) {
    try {
      const waiting = end ? 0 : await unpublished(sys, outbox.lastId);
      if (!end && waiting === 0) {
        relayDoneAt = performance.now();
        end = await offsets.end();
      }
      const open = groups.filter(([service]) => !drained.has(service));
      const committed = await Promise.all(open.map(([, group]) => offsets.committed(group)));
      const at = performance.now();
      const sample: Sample = { s: Math.round(at - t0) / 1000, waiting, passed: {} };
      open.forEach(([service], i) => {
        sample.passed[service] = eventsBetween(start.get(service) as Offsets, committed[i]);
        if (sample.passed[service] === 0) idle.set(service, at);
        else if (!first.has(service)) first.set(service, { at, offsets: committed[i] });
        if (end && reached(committed[i], end)) drained.set(service, { at, offsets: committed[i] });
      });
      // One sample a second is enough to see the phases, and keeps the run's JSON small.
      if (timeline.length === 0 || sample.s - timeline[timeline.length - 1].s >= 1) timeline.push(sample);
    } catch {
      // The broker is still settling after its return: the next round asks again.
    }
    await sleep(SAMPLE_MS);
  }
  const seconds = (at: number | undefined) => (at === undefined ? NaN : (at - t0) / 1000);
  return {
    relay: { backlog: outbox.waiting, catchUpS: seconds(relayDoneAt) },
    consumers: groups.map(([service]) => {
      const backlog = end ? eventsBetween(start.get(service) as Offsets, end) : NaN;
      const f = first.get(service);
      const d = drained.get(service);
      const timed = f !== undefined && d !== undefined && backlog >= TIMED_BACKLOG;
      const span = timed ? (d.at - f.at) / 1000 : 0;
      const atLeast = timed && span === 0;
      return {
        service,
        backlog,
        drainS: seconds(d?.at),
        firstCommitS: seconds(f?.at),
        rate: timed
          ? atLeast
            ? eventsBetween(start.get(service) as Offsets, d.offsets) / ((d.at - (idle.get(service) as number) + COMMIT_INTERVAL_MS) / 1000)
            : eventsBetween(f.offsets, d.offsets) / span
          : NaN,
        rateAtLeast: atLeast,
      };
    }),
    timeline,
  };
}

/** Waits until the relay has published everything and every group has committed up to the topic's end. */
export async function settle(timeoutMs: number, sys: DistributedSystem, offsets: TopicOffsets, consumers: Consumers): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    try {
      if ((await outboxNow(sys)).waiting === 0) {
        const end = await offsets.end();
        const committed = await Promise.all([...consumers.groups.values()].map((g) => offsets.committed(g)));
        if (committed.every((c) => reached(c, end))) return true;
      }
    } catch {
      // As in drain: asked again.
    }
    await sleep(SAMPLE_MS);
  }
  return false;
}
