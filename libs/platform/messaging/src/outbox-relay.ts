import { setImmediate } from 'node:timers/promises';
import type { PoolClient, QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
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
  /** The CloudEvent JSON as PostgreSQL prints the jsonb: published as it is, never parsed here. */
  envelope: string;
  headers: Record<string, string> | string;
}

/** A claimed batch, its transaction open until `end`. */
interface ClaimedBatch {
  /** Claimed while the batch before it was still open. */
  ahead: boolean;
  /** Rows locked, sendable or not. */
  claimed: number;
  /** The rows marked published, in id order. */
  rows: OutboxRow[];
  end(command: 'COMMIT' | 'ROLLBACK'): Promise<void>;
}

/** A row of the claim statement: how many rows it locked, and one row it marked (none when it marked nothing). */
interface ClaimedRow extends Partial<OutboxRow> {
  claimed: number;
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
  /** The claim of a batch, see `relayClaimed`. */
  private readonly claimSql: string;
  private timer?: NodeJS.Timeout;
  private draining?: Promise<void>;
  private again = false;
  private stopped = true;
  private failures = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly bus: BusPort,
    private readonly options: OutboxRelayOptions,
  ) {
    this.table = `${quoteIdent(options.schema)}.outbox`;
    if (!Number.isSafeInteger(options.batchSize) || options.batchSize < 1) throw new Error(`batchSize must be a positive integer, not ${options.batchSize}`);
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
    this.timer = setTimeout(() => {
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
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    try {
      if (this.options.serializedSession) {
        for (;;) {
          this.again = false;
          const claimed = await this.relayUnlocked();
          if (claimed < this.options.batchSize && !this.again) break;
          if (this.stopped) break;
        }
      } else {
        await this.relayClaimed();
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

  /**
   * Batches on PostgreSQL until a claim finds less than a full batch (and no commit woke the relay meanwhile).
   *
   * After a full batch more rows are likely waiting, so the next batch is claimed, on another connection, while
   * this one is being published, and a batch commits while the next one is being published. Nothing of the order
   * is lost by that: a batch claimed while the one before it is uncommitted sees that batch's rows as locked and
   * unpublished, so it skips them and its key check leaves every request that has a row there, exactly as it
   * leaves a request held by another replica. The publishes stay one after the other, the commits too, and a batch
   * commits only after the one before it did; a failed publish or commit rolls back the batches after it, and the
   * relay stops where it is.
   */
  private async relayClaimed(): Promise<void> {
    let next: Promise<ClaimedBatch> | undefined = this.claim(false);
    let committing: Promise<void> | undefined;
    try {
      for (;;) {
        this.again = false;
        const batch = await next;
        next = undefined;
        if (batch.claimed >= this.options.batchSize && !this.stopped) {
          next = settledLater(this.claim(true));
          // One turn of the event loop lets the claim reach the database before the publish's encoding takes it.
          await setImmediate();
        }
        try {
          await this.publish(batch.rows);
          await committing;
        } catch (e) {
          await batch.end('ROLLBACK');
          throw e;
        }
        committing = settledLater(batch.end('COMMIT'));
        if (this.stopped) break;
        if (!next && (this.again || batch.ahead)) {
          // A batch claimed ahead saw less than the outbox holds (the rows locked by the batch before it), so it ends
          // nothing: the next claim comes after the commits, like any claim that is not ahead.
          await committing;
          next = this.claim(false);
        }
        if (!next) break;
      }
      await committing;
    } finally {
      if (next) await next.then((b) => b.end('ROLLBACK')).catch(() => undefined);
      await committing?.catch(() => undefined);
    }
  }

  /**
   * One batch claimed in one round trip: the claim statement opens the transaction, locks the batch, leaves the
   * rows whose request is held elsewhere and marks the others published (invisible to anyone until the commit).
   * The connection comes straight from the pool and stays with the batch until `end`: the hot path needs none of
   * TypeORM's query handling.
   */
  private async claim(ahead: boolean): Promise<ClaimedBatch> {
    const [client, release] = (await (this.dataSource.driver as PostgresDriver).obtainMasterConnection()) as [PoolClient, (err?: unknown) => void];
    const end = async (command: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
      let broken: unknown;
      try {
        await client.query(command);
      } catch (e) {
        // The transaction is over either way; a connection that failed to end it is dropped from the pool.
        broken = e;
        if (command === 'COMMIT') throw e;
      } finally {
        release(broken);
      }
    };
    try {
      // Two statements in one simple-protocol message: BEGIN and the claim.
      const results = (await client.query(this.claimSql)) as unknown as QueryResult<ClaimedRow>[];
      const rows = results[1].rows;
      return {
        ahead,
        claimed: rows.length === 0 ? 0 : Number(rows[0].claimed),
        rows: rows.filter((r): r is ClaimedRow & OutboxRow => r.id != null),
        end,
      };
    } catch (e) {
      await end('ROLLBACK');
      throw e;
    }
  }

  private async relayUnlocked(): Promise<number> {
    const rows: OutboxRow[] = await this.dataSource.query(
      `SELECT id, topic, partition_key, envelope::text AS envelope, headers FROM ${this.table}
        WHERE processed_at IS NULL ORDER BY id LIMIT $1`,
      [this.options.batchSize],
    );
    if (rows.length === 0) return 0;
    await this.publish(rows);
    await this.markProcessed(this.dataSource.manager, rows);
    return rows.length;
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
    for (const m of messages) Metrics.get().outboxPublished.inc({ service: this.options.service, topic: m.topic });
  }

  private async markProcessed(tx: EntityManager, rows: OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.query(`UPDATE ${this.table} SET processed_at = now(), attempts = attempts + 1 WHERE id = ANY($1::bigint[])`, [
      rows.map((r) => r.id),
    ]);
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

/**
 * BEGIN and the claim of at most `batchSize` rows, as one parameterless message (the batch size is a validated
 * integer), so the simple protocol sends both in one round trip and no prepared statement is left on a connection a
 * pooler may hand to someone else. In one snapshot it
 * - locks the oldest unpublished rows that no other relay holds (`FOR UPDATE SKIP LOCKED`), materialized once;
 * - finds the requests that have an unpublished row outside the batch before the last row the batch has of them
 *   (before the first, or between two of them: another relay skipped past a row it found locked): their rows stay
 *   locked but unmarked, for a later round, so each request keeps its order;
 * - marks the others published and returns them in id order, with the number of rows locked on every row (and on
 *   a single row of NULLs when none could be marked).
 */
function claimStatement(table: string, batchSize: number): string {
  return `BEGIN ISOLATION LEVEL READ COMMITTED;
WITH claimed AS MATERIALIZED (
       SELECT id, partition_key FROM ${table}
        WHERE processed_at IS NULL ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED),
     held AS (
       SELECT c.partition_key FROM claimed c GROUP BY c.partition_key
       HAVING EXISTS (SELECT 1 FROM ${table} o
                       WHERE o.partition_key = c.partition_key AND o.processed_at IS NULL AND o.id < max(c.id)
                         AND NOT EXISTS (SELECT 1 FROM claimed mine WHERE mine.id = o.id))),
     marked AS (
       UPDATE ${table} o SET processed_at = now(), attempts = o.attempts + 1
         FROM claimed c
        WHERE o.id = c.id AND c.partition_key NOT IN (SELECT partition_key FROM held)
       RETURNING o.id, o.topic, o.partition_key, o.envelope::text AS envelope, o.headers)
SELECT n.claimed, m.* FROM (SELECT count(*)::int AS claimed FROM claimed) n LEFT JOIN marked m ON true ORDER BY m.id`;
}
