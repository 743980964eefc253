import { AsyncResource } from 'node:async_hooks';
import { setImmediate } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { quoteIdent } from '@dsar/platform/persistence';
import { Metrics } from '@dsar/platform/observability';
import type { BusMessage, BusPort } from './bus.port';
import { claimBatch, type ClaimedBatch, claimStatement, type OutboxRow } from './outbox-claim';

export interface OutboxRelayOptions {
  service: string;
  schema: string;
  batchSize: number;
  pollIntervalMs: number;
  /**
   * True on a single-session database (PGlite): the claim cannot stay open
   * while consumers in the same process need the session, so rows are read,
   * published and then deleted, one step at a time. A crash between publish
   * and delete only means the event is sent again; inboxes drop the duplicate.
   */
  serializedSession: boolean;
  log: (level: 'error' | 'warn' | 'debug', message: string, extra?: Record<string, unknown>) => void;
}

/**
 * Publishes committed outbox rows. It wakes right after a local commit and
 * polls as a fallback (other replicas' commits, restarts, broker outages).
 *
 * On PostgreSQL several replicas may relay at once: rows are claimed with
 * `FOR UPDATE SKIP LOCKED` in id order, and a claimed row whose request has an
 * earlier row held by another replica is left for later, so the events of one
 * request are always published in the order they were committed. A published
 * row is deleted, in the transaction of its claim, committed once the broker
 * acknowledged it (ADR 0046).
 */
export class OutboxRelay {
  private readonly table: string;
  /** The claim of a batch on PostgreSQL, see `claimStatement`. */
  private readonly claimSql: string;
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = true;
  private failures = 0;
  /**
   * The async context of the relay's work: the one it was built in, outside any request. A commit's `wake` must not
   * hand its request's async-local state (the request context: its id, its caller) to the consumers the events reach.
   */
  private readonly scope = new AsyncResource('dsar.outbox-relay');

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: BusPort,
    private readonly options: OutboxRelayOptions,
  ) {
    this.table = `${quoteIdent(options.schema)}.outbox`;
    this.claimSql = claimStatement(this.table, options.batchSize);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    Metrics.get().registerBacklogProbe(this.options.service, () => this.backlog());
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    Metrics.get().unregisterBacklogProbe(this.options.service);
    await this.draining;
  }

  /** Called after a local commit: publish now instead of at the next poll. */
  wake(): void {
    if (this.stopped) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Publishes everything that is pending now; resolves when the outbox is empty or publishing failed. */
  drainOnce(): Promise<void> {
    if (!this.draining) {
      this.draining = this.drain().finally(() => (this.draining = undefined));
    }
    return this.draining;
  }

  async backlog(): Promise<{ count: number; oldestAgeSeconds: number }> {
    const [row] = await this.dataSource.query(
      `SELECT count(*)::int AS count, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
         FROM ${this.table} WHERE processed_at IS NULL`,
    );
    return { count: Number(row.count), oldestAgeSeconds: Number(row.age) };
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.scope.runInAsyncScope(() => this.drainAndReschedule()), delayMs);
    this.timer.unref();
  }

  private drainAndReschedule(): void {
    void this.drainOnce().finally(() => {
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      } else {
        // Back off while publishing fails (broker down), up to 10 polls.
        this.schedule(this.options.pollIntervalMs * Math.min(2 ** this.failures, 10));
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      if (this.options.serializedSession) await this.relayUnlocked();
      else await this.relayClaimed();
      this.failures = 0;
    } catch (e) {
      this.failures++;
      Metrics.get().outboxPublishFailures.inc({ service: this.options.service });
      this.options.log('warn', 'outbox relay could not publish; events stay in the outbox', {
        error: (e as Error).message,
        consecutiveFailures: this.failures,
      });
      await this.recordFailure(e as Error).catch(() => undefined);
    }
  }

  /**
   * Batches on PostgreSQL until a claim finds less than a full batch (and no commit woke the relay since it was sent).
   *
   * After a full batch more rows are likely waiting, so the next batch is claimed, on another connection, while this
   * one is being published, and a batch commits while the next one is being published: the claim and the commit are
   * off the path between two publishes. Order holds as it holds between replicas: a batch claimed while the one before
   * it is open sees that batch's rows as locked and unpublished, so it skips them and leaves every request that has a
   * row there. Publishes stay one after the other, and a batch commits only after the one before it did; a failed
   * publish or commit rolls back the batch claimed ahead, and the drain fails (the poll loop backs off and tries
   * again). Each batch takes its connection from the pool and gives it back when it ends, so a database restart leaves
   * nothing behind that later batches would use.
   */
  private async relayClaimed(): Promise<void> {
    let next: Promise<ClaimedBatch> | undefined = this.claim();
    /** `next` was claimed while a batch was open. */
    let nextIsAhead = false;
    let committing: Promise<void> | undefined;
    try {
      for (;;) {
        const batch = await next;
        const batchWasAhead = nextIsAhead;
        next = undefined;
        if (batch.claimed >= this.options.batchSize && !this.stopped) {
          next = settledLater(this.claim());
          nextIsAhead = true;
          // One turn of the event loop lets the claim reach the database before the publish's encoding holds the loop.
          await setImmediate();
        }
        try {
          await this.publish(batch.rows);
          await committing;
        } catch (e) {
          await batch.end('ROLLBACK').catch(() => undefined);
          throw e;
        }
        committing = settledLater(batch.end('COMMIT'));
        if (this.stopped) break;
        if (!next && (this.again || batchWasAhead)) {
          // A claim sent while a batch was open saw less than the outbox holds (that batch's rows, locked), and a wake
          // means a commit its claim may not have seen: one more claim once everything is committed ends the drain.
          await committing;
          next = this.claim();
          nextIsAhead = false;
        }
        if (!next) break;
      }
      await committing;
    } finally {
      if (next) await next.then((b) => b.end('ROLLBACK')).catch(() => undefined);
      await committing?.catch(() => undefined);
    }
  }

  /** A claim sent now: a commit that wakes the relay from here on may not be in it. */
  private claim(): Promise<ClaimedBatch> {
    this.again = false;
    return claimBatch(this.dataSource, this.claimSql);
  }

  private async relayUnlocked(): Promise<void> {
    for (;;) {
      this.again = false;
      const rows: OutboxRow[] = await this.dataSource.query(
        `SELECT id, topic, partition_key, envelope::text AS envelope, headers FROM ${this.table}
          WHERE processed_at IS NULL ORDER BY id LIMIT $1`,
        [this.options.batchSize],
      );
      await this.publish(rows);
      if (rows.length > 0) await this.dataSource.query(`DELETE FROM ${this.table} WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      if ((rows.length < this.options.batchSize && !this.again) || this.stopped) return;
    }
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    const messages: BusMessage[] = rows.map((r) => ({
      topic: r.topic,
      key: r.partition_key,
      value: r.envelope,
      headers: typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers,
    }));
    await this.bus.publish(messages);
    const perTopic = new Map<string, number>();
    for (const m of messages) perTopic.set(m.topic, (perTopic.get(m.topic) ?? 0) + 1);
    for (const [topic, count] of perTopic) Metrics.get().outboxPublished.inc({ service: this.options.service, topic }, count);
  }

  private async recordFailure(error: Error): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET attempts = attempts + 1, last_error = $2
        WHERE id IN (SELECT id FROM ${this.table} WHERE processed_at IS NULL ORDER BY id LIMIT $1)`,
      [this.options.batchSize, error.message.slice(0, 1000)],
    );
  }
}

/** A promise awaited later, while other work is under way: its failure must not count as unhandled meanwhile. */
function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
