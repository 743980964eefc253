import type { Consumer, Kafka } from 'kafkajs';
import { TaskEventTypes, Topics } from '@dsar/contracts';
import { sleep } from './backoff';
import type { Logger } from './logger';
import type { PendingTask, TaskApi } from './task-api';

/** A task the feed says may be taken; the runner claims it (the claim decides: another instance may have it). */
export interface TaskOffer {
  taskId: string;
  /** Where the feed heard of it: an event (`requested`, `requeued`) or the pending list (`listed`). */
  via: 'requested' | 'requeued' | 'listed';
}

/** What the runner hands its feed. */
export interface FeedContext {
  readonly api: TaskApi;
  readonly systemKey: string;
  /** Aborted when the connector stops. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /**
   * Offers a task; false when the runner already has it or its queue is full (the task stays queued in the service,
   * and the next listing offers it again). Never waits: a consumer must not hold its partition while a task runs.
   */
  offer(task: TaskOffer): boolean;
  /** Resolves once every offered task was taken up and finished (or the connector stops). */
  drained(): Promise<void>;
}

/** Where a connector hears of its tasks: the task topic (`kafkaFeed`, `messageFeed`) or the pending list (`pullFeed`). */
export interface TaskFeed {
  readonly kind: string;
  start(context: FeedContext): Promise<void>;
  stop(): Promise<void>;
}

/** Lists the pending tasks once (all of them, page after page as they are taken) and offers them; returns how many were offered. */
async function offerPending(context: FeedContext, limit: number): Promise<number> {
  let offered = 0;
  // A task offered once in this round and still listed (its claim failed) is not offered again until the next round.
  const seen = new Set<string>();
  for (;;) {
    const items: PendingTask[] = await context.api.listPending(context.systemKey, limit, context.signal);
    const fresh = items.filter((item) => !seen.has(item.taskId) && context.offer({ taskId: item.taskId, via: 'listed' }));
    for (const item of fresh) seen.add(item.taskId);
    offered += fresh.length;
    // A full page with new tasks: there may be more behind them once those are claimed.
    if (items.length < limit || fresh.length === 0) return offered;
    await context.drained();
    if (context.signal.aborted) return offered;
  }
}

/** Runs `once` now and every `intervalMs` until the connector stops; a failure waits for the next round. */
function everyInterval(context: FeedContext, intervalMs: number, what: string, once: () => Promise<unknown>): Promise<void> {
  return (async () => {
    while (!context.signal.aborted) {
      try {
        await once();
      } catch (e) {
        if (context.signal.aborted) break;
        context.log.warn(`${what} failed; trying again in ${intervalMs} ms`, { error: (e as Error).message });
      }
      await sleep(intervalMs, context.signal).catch(() => undefined);
    }
  })();
}

export interface PullFeedOptions {
  /** How long to wait between listings when the list was empty or everything listed was done. Default 30 000 ms. */
  intervalMs?: number;
  /** Tasks per listing (1–100). Default 20. */
  limit?: number;
}

/**
 * A pull system's feed: lists the system's pending tasks over HTTP (queued ones, and claimed ones whose lease
 * lapsed), offers them, waits until they are done, and lists again, immediately while the pages come back full.
 */
export function pullFeed(options: PullFeedOptions = {}): TaskFeed {
  const intervalMs = options.intervalMs ?? 30_000;
  const limit = options.limit ?? 20;
  let loop: Promise<void> | undefined;
  return {
    kind: 'pull',
    async start(context) {
      loop = everyInterval(context, intervalMs, 'listing pending tasks', async () => {
        await offerPending(context, limit);
        await context.drained();
      });
    },
    async stop() {
      await loop;
    },
  };
}

/** One message of the task topic, as any client gives it. */
export interface TaskTopicMessage {
  key?: Buffer | string | null;
  value: Buffer | string | null;
}

export interface MessageFeedOptions {
  /** The tenant the API key belongs to: events of other tenants' systems are ignored. */
  tenantId: string;
  /**
   * Subscribes to the task topic and hands each message to `onMessage`; returns what stops the subscription.
   * `kafkaFeed` does this with kafkajs; a test can do it with an in-memory bus.
   */
  subscribe: (onMessage: (message: TaskTopicMessage) => Promise<void>) => Promise<{ close(): Promise<void> }>;
  /**
   * Also list the pending tasks over HTTP when the feed starts and then every `catchUpIntervalMs`: the tasks queued
   * while no consumer listened (a new consumer group starts at the topic's end), and those an event was missed or
   * dropped for (the runner's queue was full). Default 300 000 ms; 0 lists only at the start; false never.
   */
  catchUpIntervalMs?: number | false;
  kind?: string;
}

const OFFERED_EVENTS: ReadonlyMap<string, TaskOffer['via']> = new Map([
  [TaskEventTypes.requested, 'requested'],
  [TaskEventTypes.requeued, 'requeued'],
]);

/**
 * The task the message announces for this tenant's system, if any: a `dsar.task.requested.v1` with `state`
 * `queued` (a new task, or one whose turn came; one still `waiting` for the systems it comes after is passed over,
 * and announced again when it is queued) or `dsar.task.requeued.v1` (a lapsed lease, a retryable error, an
 * operator's retry). The event carries no token nor identity: the claim gives them.
 */
export function offerOf(message: TaskTopicMessage, tenantId: string, systemKey: string): TaskOffer | undefined {
  const key = message.key === undefined || message.key === null ? undefined : message.key.toString();
  // The bus key is `<tenantId>:<systemKey>`: another system's events are passed over without parsing them.
  if (key !== undefined && key !== `${tenantId}:${systemKey}`) return undefined;
  if (message.value === null) return undefined;
  let event: { type?: unknown; tenantid?: unknown; data?: { taskId?: unknown; systemKey?: unknown; state?: unknown } };
  try {
    event = JSON.parse(message.value.toString()) as typeof event;
  } catch {
    return undefined;
  }
  const via = typeof event.type === 'string' ? OFFERED_EVENTS.get(event.type) : undefined;
  if (!via || event.tenantid !== tenantId || event.data?.systemKey !== systemKey || typeof event.data.taskId !== 'string') return undefined;
  if (via === 'requested' && event.data.state === 'waiting') return undefined;
  return { taskId: event.data.taskId, via };
}

/** A push system's feed over any subscription to the task topic (see `kafkaFeed`). */
export function messageFeed(options: MessageFeedOptions): TaskFeed {
  let subscription: { close(): Promise<void> } | undefined;
  let catchUp: Promise<void> | undefined;
  return {
    kind: options.kind ?? 'messages',
    async start(context) {
      subscription = await options.subscribe(async (message) => {
        const offer = offerOf(message, options.tenantId, context.systemKey);
        if (offer) context.offer(offer);
      });
      const interval = options.catchUpIntervalMs ?? 300_000;
      if (interval === false) return;
      if (interval === 0) {
        catchUp = offerPending(context, 100).then(
          () => undefined,
          (e: unknown) => context.log.warn('listing pending tasks at the start failed', { error: (e as Error).message }),
        );
        return;
      }
      catchUp = everyInterval(context, interval, 'listing pending tasks', () => offerPending(context, 100));
    },
    async stop() {
      await subscription?.close();
      await catchUp;
    },
  };
}

export interface KafkaFeedOptions {
  kafka: Kafka;
  /** The deployment's topic prefix (its KAFKA_TOPIC_PREFIX): the topic read is `<prefix>dsar.task.v1`. Default none. */
  topicPrefix?: string;
  /** The connector's consumer group: one per system, shared by its instances (Kafka spreads the partitions over them). */
  groupId: string;
  tenantId: string;
  /** Read the topic from its start when the group is new. Default false: the catch-up listing finds the older tasks. */
  fromBeginning?: boolean;
  catchUpIntervalMs?: number | false;
  /** How long to wait for the consumer group to be joined before the first catch-up listing. Default 30 000 ms. */
  joinTimeoutMs?: number;
}

/**
 * A push system's feed: consumes dsar.task.v1 with kafkajs in its own consumer group and offers the tasks of this
 * tenant's system (the key `<tenantId>:<systemKey>`). The offset is committed as soon as the task is offered: a
 * task the connector then fails to finish is not lost, its lease lapses and the service queues it again with a
 * `requeued` event. Once the group is joined, the pending tasks are listed over HTTP too (see `catchUpIntervalMs`).
 */
export function kafkaFeed(options: KafkaFeedOptions): TaskFeed {
  const topic = `${options.topicPrefix ?? ''}${Topics.task}`;
  return messageFeed({
    kind: 'kafka',
    tenantId: options.tenantId,
    catchUpIntervalMs: options.catchUpIntervalMs,
    subscribe: async (onMessage) => {
      const consumer: Consumer = options.kafka.consumer({ groupId: options.groupId });
      let joined!: () => void;
      const join = new Promise<void>((resolve) => (joined = resolve));
      const removeListener = consumer.on(consumer.events.GROUP_JOIN, () => joined());
      await consumer.connect();
      try {
        await consumer.subscribe({ topic, fromBeginning: options.fromBeginning ?? false });
        await consumer.run({ eachMessage: ({ message }) => onMessage(message) });
        // Listing before the group is joined could miss a task queued between the listing and the join.
        const timeoutMs = options.joinTimeoutMs ?? 30_000;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          join,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the consumer group ${options.groupId} was not joined within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]).finally(() => clearTimeout(timer));
      } catch (e) {
        removeListener();
        await consumer.disconnect().catch(() => undefined);
        throw e;
      }
      return {
        close: async () => {
          removeListener();
          await consumer.disconnect();
        },
      };
    },
  });
}
