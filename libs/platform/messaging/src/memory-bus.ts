import type { BatchHandler, BatchOptions, BusMessage, BusPort, InboundMessage, MessageHandler, Subscription } from './bus.port';

interface Subscriber {
  groupId: string;
  topics: Set<string>;
  handler: BatchHandler;
  maxMessages: number;
}

/**
 * The embedded mode's bus: one per process, shared by every service in it.
 * `publish` hands the messages to each subscribed group in turn, in their
 * order (a group that takes batches gets them together), and waits for them, so an outbox row is marked published only after its consumers
 * have taken it; if the process dies first, the relay sends it again and the
 * consumers' inboxes drop the duplicate. Nothing is lost, nothing is kept in
 * memory beyond the delivery. Dead letters are kept (bounded) for inspection.
 */
export class MemoryBus implements BusPort {
  readonly driver = 'memory' as const;
  private static shared?: MemoryBus;
  private readonly subscribers = new Set<Subscriber>();
  private readonly offsets = new Map<string, number>();
  private readonly deadLetterLog: BusMessage[] = [];
  private delivering: Promise<void> = Promise.resolve();
  static readonly deadLetterCapacity = 1000;

  static instance(): MemoryBus {
    return (MemoryBus.shared ??= new MemoryBus());
  }

  get deadLetters(): readonly BusMessage[] {
    return this.deadLetterLog;
  }

  publish(messages: BusMessage[]): Promise<void> {
    // Dead letters come from inside a delivery (a consumer giving up): they must
    // not queue behind the delivery that is waiting for that consumer.
    if (messages.every((m) => m.topic.endsWith('.dlq'))) return this.deliver(messages);
    // Publishers take turns so that messages reach each group in publish order.
    const run = this.delivering.then(() => this.deliver(messages));
    this.delivering = run.catch(() => undefined);
    return run;
  }

  private async deliver(messages: BusMessage[]): Promise<void> {
    const inbound = messages.map((message): InboundMessage => {
      const offset = this.offsets.get(message.topic) ?? 0;
      this.offsets.set(message.topic, offset + 1);
      if (message.topic.endsWith('.dlq')) {
        this.deadLetterLog.push(message);
        if (this.deadLetterLog.length > MemoryBus.deadLetterCapacity) this.deadLetterLog.shift();
      }
      return { ...message, partition: 0, offset: String(offset) };
    });
    for (const s of [...this.subscribers]) {
      const theirs = inbound.filter((m) => s.topics.has(m.topic));
      for (let start = 0; start < theirs.length; start += s.maxMessages) await s.handler(theirs.slice(start, start + s.maxMessages));
    }
  }

  subscribe(groupId: string, topics: string[], handler: MessageHandler): Promise<Subscription> {
    return this.subscribeBatches(groupId, topics, ([message]) => handler(message), { maxMessages: 1 });
  }

  async subscribeBatches(groupId: string, topics: string[], handler: BatchHandler, options: BatchOptions): Promise<Subscription> {
    for (const s of this.subscribers) {
      if (s.groupId === groupId) throw new Error(`Consumer group ${groupId} is already subscribed on the in-memory bus`);
    }
    const subscriber: Subscriber = { groupId, topics: new Set(topics), handler, maxMessages: Math.max(1, options.maxMessages) };
    this.subscribers.add(subscriber);
    return { close: async () => void this.subscribers.delete(subscriber) };
  }

  async isHealthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    // Shared by the services of the process; subscriptions close one by one.
  }
}
