/** A message as the bus carries it: the CloudEvent JSON as value, keyed by request id. */
export interface BusMessage {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface InboundMessage extends BusMessage {
  partition: number;
  offset: string;
}

export type MessageHandler = (message: InboundMessage) => Promise<void>;

/**
 * Consecutive messages of one partition (one topic and partition on Kafka; the
 * messages of one publish on the in-memory bus), in their order. The batch is
 * taken as a whole: when the handler rejects, every message of it is delivered again.
 */
export type BatchHandler = (messages: InboundMessage[]) => Promise<void>;

export interface BatchOptions {
  /** The most messages handed over at once; a larger fetch is handed over in parts. */
  maxMessages: number;
}

export interface Subscription {
  close(): Promise<void>;
}

/**
 * The port every service talks to; Kafka and the in-memory bus are its two
 * adapters. `publish` resolves only once the messages are durable (Kafka: acked
 * by all in-sync replicas) or, in memory, handled by every subscriber, so the
 * outbox may mark them published.
 */
export interface BusPort {
  readonly driver: 'kafka' | 'memory';
  publish(messages: BusMessage[]): Promise<void>;
  /** Joins a consumer group; a handler that rejects makes the bus deliver the message again. */
  subscribe(groupId: string, topics: string[], handler: MessageHandler): Promise<Subscription>;
  /** The same, the messages handed over in batches (`subscribe` is this with batches of one). */
  subscribeBatches(groupId: string, topics: string[], handler: BatchHandler, options: BatchOptions): Promise<Subscription>;
  isHealthy(): Promise<boolean>;
  close(): Promise<void>;
}

export const BUS_PORT = Symbol('BUS_PORT');
