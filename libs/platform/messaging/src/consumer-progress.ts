/** How often a consumer commits the offsets of the messages it has handled (at most). */
export const OFFSET_COMMIT_INTERVAL_MS = 500;

/** The key of a partition in the progress. */
const keyOf = (topic: string, partition: number): string => `${topic}\n${partition}`;

/** The part of a kafkajs consumer the progress needs. */
export interface OffsetCommitter {
  commitOffsets(offsets: { topic: string; partition: number; offset: string }[]): Promise<void>;
}

/**
 * What one consumer has handled, committed to the group every OFFSET_COMMIT_INTERVAL_MS instead of after every
 * batch. kafkajs' auto-commit sends an offset commit after each batch it fetched, and under a steady flow a batch is
 * one or two messages: one broker request per event per consumer group, most of the broker's work per create
 * (docs/performance.md). Committing only what a handler has finished keeps every guarantee: nothing is skipped;
 * a process that dies, or a partition that moves to another member, gives up to one interval of messages again,
 * which the inbox (bus-server.ts) recognises.
 */
export class ConsumerProgress {
  /** The next offset to read, per `topic\npartition`, of what was handled and not committed yet. */
  private readonly pending = new Map<string, { topic: string; partition: number; offset: bigint }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer?: NodeJS.Timeout;
  private committing: Promise<void> = Promise.resolve();

  constructor(
    private readonly consumer: OffsetCommitter,
    private readonly onError: (error: Error) => void,
    private readonly intervalMs = OFFSET_COMMIT_INTERVAL_MS,
  ) {}

  /** Starts the periodic commits. */
  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops them; what is pending stays for a last `flush`. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Runs a delivery, counted until it settles, and records its offset once it has succeeded. */
  async deliver(topic: string, partition: number, offset: string, delivery: () => Promise<void>): Promise<void> {
    const running = delivery();
    this.inFlight.add(running);
    try {
      await running;
    } finally {
      this.inFlight.delete(running);
    }
    this.keep({ topic, partition, offset: BigInt(offset) + 1n });
  }

  /** Records the next offset of a partition unless a later one is recorded already. */
  private keep(entry: { topic: string; partition: number; offset: bigint }): void {
    const key = keyOf(entry.topic, entry.partition);
    const known = this.pending.get(key);
    if (!known || known.offset < entry.offset) this.pending.set(key, entry);
  }

  /** After a rebalance: forgets what is pending for partitions this member no longer has (their new owner goes on). */
  retain(assignment: Readonly<Record<string, readonly number[]>>): void {
    for (const [key, { topic, partition }] of this.pending) if (!assignment[topic]?.includes(partition)) this.pending.delete(key);
  }

  /** Resolves when no delivery is running. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Commits what is pending (one commit at a time); a failed commit is tried again at the next one. */
  flush(): Promise<void> {
    this.committing = this.committing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending.clear();
      try {
        await this.consumer.commitOffsets(batch.map(({ topic, partition, offset }) => ({ topic, partition, offset: offset.toString() })));
      } catch (e) {
        for (const entry of batch) this.keep(entry);
        this.onError(e instanceof Error ? e : new Error(String(e)));
      }
    });
    return this.committing;
  }
}
