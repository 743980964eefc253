import { setTimeout as sleep } from 'node:timers/promises';
import { type Admin, type Consumer, type EachBatchPayload, Kafka, type KafkaConfig, type KafkaMessage, logLevel, type Producer } from 'kafkajs';
import { Metrics } from '@dsar/platform/observability';
import type { BatchHandler, BatchOptions, BusMessage, BusPort, InboundMessage, MessageHandler, Subscription } from './bus.port';
import { ConsumerProgress } from './consumer-progress';
import { fixIdleRequestQueueTimers } from './kafkajs-request-queue';

fixIdleRequestQueueTimers();

export interface KafkaBusOptions {
  brokers: string[];
  clientId: string;
  /** Physical topic = prefix + logical topic; services only ever see logical names. */
  topicPrefix?: string;
  /** Forwarded to kafkajs' logger. */
  log?: (level: 'error' | 'warn' | 'info' | 'debug', message: string, extra: Record<string, unknown>) => void;
  /** How many partitions one consumer handles at once. */
  partitionsConsumedConcurrently?: number;
  /** The `service` label of the consumer metrics. */
  service?: string;
  /** Consumer session timeout; CONSUMER_SESSION_TIMEOUT_MS when absent. */
  sessionTimeoutMs?: number;
}

/**
 * Group membership timing. After a broker restart, or a consumer crash while the
 * broker was away, the consumer rejoins as a new member and the broker holds the
 * group's rebalance until the old member's session has expired: the session
 * timeout is how long consumption stalls then. 10 s by default
 * (KAFKA_SESSION_TIMEOUT_MS; the broker's minimum is 6 s) with a heartbeat every
 * second keeps that stall short; long handlers keep heartbeating themselves (see
 * `subscribe`).
 */
export const CONSUMER_SESSION_TIMEOUT_MS = 10_000;
export const CONSUMER_HEARTBEAT_INTERVAL_MS = 1_000;
/** How soon a consumer that kafkajs gave up on is started again (and tried again while the broker is away). */
export const CONSUMER_RESTART_INTERVAL_MS = 1_000;

const levelName = (l: logLevel): 'error' | 'warn' | 'info' | 'debug' =>
  l === logLevel.ERROR || l === logLevel.NOTHING ? 'error' : l === logLevel.WARN ? 'warn' : l === logLevel.INFO ? 'info' : 'debug';

/**
 * The distributed mode's bus, on kafkajs. The producer is idempotent with one
 * request in flight and waits for all in-sync replicas, so a batch keeps its
 * order and is durable when `publish` resolves. Consumers read from the
 * beginning of a topic the first time a group joins, never create topics,
 * and commit an offset only after the handler has resolved (every
 * OFFSET_COMMIT_INTERVAL_MS, see ConsumerProgress).
 */
export class KafkaBus implements BusPort {
  readonly driver = 'kafka' as const;
  private readonly kafka: Kafka;
  private producer?: Producer;
  private producerReady?: Promise<Producer>;
  private admin?: Admin;
  private readonly consumers = new Set<Consumer>();
  private healthy: { at: number; ok: boolean } = { at: 0, ok: false };
  private readonly prefix: string;

  constructor(private readonly options: KafkaBusOptions) {
    const config: KafkaConfig = {
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 3000,
      requestTimeout: 10000,
      // At most a second between reconnection attempts (kafkajs also spaces a crashed consumer's restarts by this):
      // once a broker is back, producers and consumers find it at once.
      retry: { initialRetryTime: 250, maxRetryTime: 1000, retries: 8 },
      logLevel: logLevel.WARN,
      logCreator: () => (entry) => {
        const { message, ...extra } = entry.log;
        options.log?.(levelName(entry.level), `kafka ${entry.namespace}: ${message}`, extra);
      },
    };
    this.kafka = new Kafka(config);
    this.prefix = options.topicPrefix ?? '';
  }

  private connectedProducer(): Promise<Producer> {
    if (!this.producerReady) {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
      });
      this.producerReady = producer.connect().then(
        () => (this.producer = producer),
        (e) => {
          this.producerReady = undefined;
          throw e;
        },
      );
    }
    return this.producerReady;
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const producer = await this.connectedProducer();
    const byTopic = new Map<string, BusMessage[]>();
    for (const m of messages) {
      const same = byTopic.get(m.topic);
      if (same) same.push(m);
      else byTopic.set(m.topic, [m]);
    }
    try {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, ms]) => ({
          topic: this.prefix + topic,
          messages: ms.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
        })),
      });
    } catch (e) {
      this.discardProducer(producer);
      throw e;
    }
  }

  /**
   * Drops a producer whose send failed after its own retries, so that the next publish starts a new one. The broker
   * may no longer take the old one: after a broker restart an idempotent producer can be refused for good ("out of
   * order sequence number"), and every later send of it fails the same way. A new producer has a new id; a batch that
   * did reach the broker before the failure is sent again under it, and the consumers' inbox takes it once.
   */
  private discardProducer(producer: Producer): void {
    if (this.producer !== producer) return;
    this.producer = undefined;
    this.producerReady = undefined;
    void producer.disconnect().catch(() => undefined);
  }

  subscribe(groupId: string, topics: string[], handler: MessageHandler): Promise<Subscription> {
    return this.subscribeBatches(groupId, topics, ([message]) => handler(message), { maxMessages: 1 });
  }

  async subscribeBatches(groupId: string, topics: string[], handler: BatchHandler, options: BatchOptions): Promise<Subscription> {
    let closed = false;
    let current: { consumer: Consumer; progress: ConsumerProgress } | undefined;
    const start = async (): Promise<{ consumer: Consumer; progress: ConsumerProgress }> => {
      const consumer = this.consumerOf(groupId);
      const progress = new ConsumerProgress(consumer, (e) => this.options.log?.('warn', 'kafka consumer: offset commit failed; tried again', { groupId, error: e.message }));
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        // kafkajs restarts a crashed consumer only after a retriable error. After another one (say "Failed to find
        // group coordinator" while the broker goes away) it stays stopped and the service would consume nothing
        // more: start a new consumer instead, once the broker answers.
        if (payload.restart || closed || consumer !== current?.consumer) return;
        progress.stop();
        this.consumers.delete(consumer);
        void restart();
      });
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => progress.retain(payload.memberAssignment));
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: topics.map((t) => this.prefix + t), fromBeginning: true });
        await consumer.run({
          autoCommit: false,
          partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 3,
          // Offsets are resolved by hand, after each part of a fetched batch has been handled, so that a part that
          // fails (or a rebalance between parts) makes kafkajs fetch again from the first message not handled.
          eachBatchAutoResolve: false,
          eachBatch: (payload) => this.deliverBatch(payload, progress, handler, options.maxMessages),
        });
      } catch (e) {
        await consumer.disconnect().catch(() => undefined);
        throw e;
      }
      progress.start();
      this.consumers.add(consumer);
      return { consumer, progress };
    };
    const restart = async (): Promise<void> => {
      while (!closed) {
        await sleep(CONSUMER_RESTART_INTERVAL_MS);
        if (closed) return;
        try {
          current = await start();
          return;
        } catch {
          // The broker is still away: try again.
        }
      }
    };
    current = await start();
    return {
      close: async () => {
        closed = true;
        const running = current;
        if (!running) return;
        this.consumers.delete(running.consumer);
        // Take no more messages, let the handlers running finish, commit what they did, then leave the group (so
        // that a rebalance starts at once) without handing the next member work already done.
        running.progress.stop();
        try {
          running.consumer.pause(topics.map((t) => ({ topic: this.prefix + t })));
        } catch {
          // kafkajs refuses to pause a consumer whose group is being re-initialised (it crashed, a broker error, and
          // restarts itself): it delivers nothing meanwhile, so there is nothing to pause; disconnect below ends it.
        }
        await running.progress.idle();
        await running.progress.flush();
        await running.consumer.disconnect();
      },
    };
  }

  private consumerOf(groupId: string): Consumer {
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 200,
      sessionTimeout: this.options.sessionTimeoutMs ?? CONSUMER_SESSION_TIMEOUT_MS,
      heartbeatInterval: CONSUMER_HEARTBEAT_INTERVAL_MS,
      // Reconnect at least every second while the broker is away (and after a crash, restart as soon): once it is
      // back, the consumer is on its way to rejoin at once instead of after a back-off of several seconds.
      retry: { initialRetryTime: 300, maxRetryTime: 1000, retries: 10 },
    });
    this.watchMembership(consumer, groupId);
    return consumer;
  }

  /** A fetched batch to the handler in parts of at most `maxMessages`, each part's offset resolved once it is handled. */
  private async deliverBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload, progress: ConsumerProgress, handler: BatchHandler, maxMessages: number): Promise<void> {
    const topic = batch.topic.slice(this.prefix.length);
    for (let start = 0; start < batch.messages.length; start += maxMessages) {
      // Stopping, or the partition moved to another member: leave the rest to the next fetch (or to its new owner).
      if (!isRunning() || isStale()) return;
      const part = batch.messages.slice(start, start + maxMessages);
      const last = part[part.length - 1].offset;
      await progress.deliver(batch.topic, batch.partition, last, () => this.deliverPart(topic, batch.partition, part, heartbeat, handler));
      resolveOffset(last);
      await heartbeat();
    }
  }

  /** One part of a batch to the handler, its membership kept alive while the handler runs. */
  private async deliverPart(topic: string, partition: number, part: KafkaMessage[], heartbeat: () => Promise<void>, handler: BatchHandler): Promise<void> {
    const messages = part.map((message): InboundMessage => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) {
        if (v !== undefined) headers[k] = Array.isArray(v) ? String(v[0]) : String(v);
      }
      return { topic, partition, offset: message.offset, key: message.key?.toString() ?? '', value: message.value?.toString() ?? '', headers };
    });
    // Long handlers keep the group membership alive.
    const beat = setInterval(() => void heartbeat().catch(() => undefined), CONSUMER_HEARTBEAT_INTERVAL_MS);
    try {
      await handler(messages);
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Keeps `dsar_consumer_group_joined`, `dsar_consumer_group_joins_total` and
   * `dsar_consumer_lag_messages` up to date from the consumer's own events, so
   * a consumer that is out of its group, or falls behind, shows on the metrics.
   */
  private watchMembership(consumer: Consumer, group: string): void {
    const metrics = Metrics.get();
    const labels = { service: this.options.service ?? this.options.clientId, group };
    const out = () => metrics.consumerGroupJoined.set(labels, 0);
    out();
    consumer.on(consumer.events.GROUP_JOIN, () => {
      metrics.consumerGroupJoined.set(labels, 1);
      metrics.consumerGroupJoins.inc(labels);
    });
    consumer.on(consumer.events.CRASH, out);
    consumer.on(consumer.events.REBALANCING, out);
    consumer.on(consumer.events.DISCONNECT, out);
    consumer.on(consumer.events.STOP, out);
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      const topic = payload.topic.slice(this.prefix.length);
      metrics.consumerLag.set({ ...labels, topic, partition: String(payload.partition) }, Number(payload.offsetLag));
    });
  }

  /** Whether a broker answered in the last few seconds; cached so probes stay cheap. */
  async isHealthy(): Promise<boolean> {
    if (Date.now() - this.healthy.at < 3000) return this.healthy.ok;
    let ok = false;
    try {
      this.admin ??= this.kafka.admin();
      await this.admin.connect();
      const cluster = await this.admin.describeCluster();
      ok = cluster.brokers.length > 0;
    } catch {
      ok = false;
      const admin = this.admin;
      this.admin = undefined;
      await admin?.disconnect().catch(() => undefined);
    }
    this.healthy = { at: Date.now(), ok };
    return ok;
  }

  async close(): Promise<void> {
    await Promise.all([...this.consumers].map((c) => c.disconnect().catch(() => undefined)));
    this.consumers.clear();
    await this.producer?.disconnect().catch(() => undefined);
    await this.admin?.disconnect().catch(() => undefined);
  }

  /** The admin client, for topic provisioning. */
  adminClient(): Admin {
    return this.kafka.admin();
  }
}
