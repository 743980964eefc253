import { AsyncResource } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { quoteIdent } from '@dsar/platform/persistence';
import { Metrics } from '@dsar/platform/observability';
import type { BusMessage, BusPort } from './bus.port';

export interface OutboxRelayOptions {
  service: string;
  schema: string;
  batchSize: number;
  pollIntervalMs: number;
  /**
   * True on a single-session database (PGlite): the claim cannot stay open
   * while consumers in the same process need the session, so rows are read,
   * published and then marked, one step at a time. A crash between publish
   * and mark only means the event is sent again; inboxes drop the duplicate.
   */
  serializedSession: boolean;
  log: (level: 'error' | 'warn' | 'debug', message: string, extra?: Record<string, unknown>) => void;
}

interface OutboxRow {
  id: string;
  topic: string;
  partition_key: string;
  envelope: Record<string, unknown> | string;
  headers: Record<string, string> | string;
}

/**
 * Publishes committed outbox rows. It wakes right after a local commit and
 * polls as a fallback (other replicas' commits, restarts, broker outages).
 *
 * On PostgreSQL several replicas may relay at once: rows are claimed with
 * `FOR UPDATE SKIP LOCKED` in id order, and a claimed row whose request has an
 * earlier row held by another replica is left for later, so the events of one
 * request are always published in the order they were committed.
 */
export class OutboxRelay {
  private readonly table: string;
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
      for (;;) {
        this.again = false;
        const claimed = this.options.serializedSession ? await this.relayUnlocked() : await this.relayClaimed();
        if (claimed < this.options.batchSize && !this.again) break;
        if (this.stopped) break;
      }
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

  private async relayClaimed(): Promise<number> {
    return this.dataSource.transaction('READ COMMITTED', async (tx) => {
      const rows: OutboxRow[] = await tx.query(
        `SELECT id, topic, partition_key, envelope, headers FROM ${this.table}
          WHERE processed_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize],
      );
      if (rows.length === 0) return 0;
      const sendable = await this.withoutKeysHeldElsewhere(tx, rows);
      await this.publish(sendable);
      await this.markProcessed(tx, sendable);
      return rows.length;
    });
  }

  private async relayUnlocked(): Promise<number> {
    const rows: OutboxRow[] = await this.dataSource.query(
      `SELECT id, topic, partition_key, envelope, headers FROM ${this.table}
        WHERE processed_at IS NULL ORDER BY id LIMIT $1`,
      [this.options.batchSize],
    );
    if (rows.length === 0) return 0;
    await this.publish(rows);
    await this.markProcessed(this.dataSource.manager, rows);
    return rows.length;
  }

  /** Drops rows whose request has an earlier unpublished row that this relay did not claim. */
  private async withoutKeysHeldElsewhere(tx: EntityManager, rows: OutboxRow[]): Promise<OutboxRow[]> {
    const firstIdByKey = new Map<string, string>();
    for (const r of rows) if (!firstIdByKey.has(r.partition_key)) firstIdByKey.set(r.partition_key, r.id);
    const held: { partition_key: string }[] = await tx.query(
      `SELECT DISTINCT o.partition_key FROM ${this.table} o
         JOIN unnest($1::text[], $2::bigint[]) AS c(key, first_id) ON o.partition_key = c.key
        WHERE o.processed_at IS NULL AND o.id < c.first_id`,
      [[...firstIdByKey.keys()], [...firstIdByKey.values()]],
    );
    if (held.length === 0) return rows;
    const blocked = new Set(held.map((h) => h.partition_key));
    return rows.filter((r) => !blocked.has(r.partition_key));
  }

  private async publish(rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    const messages: BusMessage[] = rows.map((r) => ({
      topic: r.topic,
      key: r.partition_key,
      value: typeof r.envelope === 'string' ? r.envelope : JSON.stringify(r.envelope),
      headers: typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers,
    }));
    await this.bus.publish(messages);
    for (const m of messages) Metrics.get().outboxPublished.inc({ service: this.options.service, topic: m.topic });
  }

  private async markProcessed(tx: EntityManager, rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.query(`UPDATE ${this.table} SET processed_at = now(), attempts = attempts + 1 WHERE id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
  }

  private async recordFailure(error: Error): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET attempts = attempts + 1, last_error = $2
        WHERE id IN (SELECT id FROM ${this.table} WHERE processed_at IS NULL ORDER BY id LIMIT $1)`,
      [this.options.batchSize, error.message.slice(0, 1000)],
    );
  }
}
