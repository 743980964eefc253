import type { PoolClient, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** An outbox row as the relay publishes it. */
export interface OutboxRow {
  id: string;
  topic: string;
  partition_key: string;
  /** The CloudEvent JSON as PostgreSQL prints the jsonb: published as it is, never parsed here. */
  envelope: string;
  headers: Record<string, string> | string;
}

/** A batch claimed on PostgreSQL, its transaction open until `end`. */
export interface ClaimedBatch {
  /** Rows the claim locked, sendable or held. */
  readonly claimed: number;
  /** The rows to publish, in id order: deleted by the open transaction, so gone once it commits and back if it rolls back. */
  readonly rows: OutboxRow[];
  /** Ends the transaction and gives the connection back to the pool, or discards it when anything on it failed. */
  end(command: 'COMMIT' | 'ROLLBACK'): Promise<void>;
}

/** A row of the claim statement: how many rows it locked, and one row it deleted (none when it deleted nothing). */
interface ClaimRow extends Partial<OutboxRow> {
  claimed: number;
}

/**
 * BEGIN and the claim of at most `batchSize` rows, as one parameterless message (the batch size is a validated
 * integer), so the simple protocol sends both in one round trip and no prepared statement is left on a connection a
 * pooler may hand to someone else. In one snapshot it
 * - locks the oldest unpublished rows that no other relay holds (`FOR UPDATE SKIP LOCKED`), materialized once;
 * - finds the requests that have an unpublished row outside the batch before the last row the batch has of them
 *   (before the first, or between two of them: a claim that skipped past a locked row can hold rows on both sides of
 *   it): their rows stay locked and untouched, for a later round, so each request keeps its order;
 * - deletes the others and returns them in id order, with the number of rows locked on every row (and on a single
 *   row of NULLs when none could be sent). Nobody sees the deletion before the COMMIT, which the relay sends only
 *   once the broker acknowledged the batch.
 *
 * An unpublished row outside the batch with a smaller id than one in it can only be one the claim skipped because
 * another transaction holds it (the claim takes the first unlocked rows in id order). So the requests held are found
 * among the rows the claim passed over: one range scan of the unpublished rows below the batch's last id, about what
 * the claim itself read, rather than one lookup per request. The plan then stays cheap whatever the statistics say:
 * taken while every row of the table was marked published, they made the planner believe the partial indexes empty,
 * and a lookup per request walked every unpublished row below the batch for every request (0.5–1.7 s a claim
 * instead of a few milliseconds).
 *
 * `processed_at IS NULL` leaves the rows an earlier version of the relay marked published instead of deleting them.
 */
export function claimStatement(table: string, batchSize: number): string {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, not ${batchSize}`);
  return `BEGIN ISOLATION LEVEL READ COMMITTED;
WITH claimed AS MATERIALIZED (
       SELECT id, partition_key FROM ${table}
        WHERE processed_at IS NULL ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED),
     passed AS MATERIALIZED (
       SELECT o.id, o.partition_key FROM ${table} o
        WHERE o.processed_at IS NULL AND o.id < (SELECT max(id) FROM claimed)
          AND o.id NOT IN (SELECT id FROM claimed)),
     held AS MATERIALIZED (
       SELECT DISTINCT c.partition_key FROM claimed c JOIN passed p ON p.partition_key = c.partition_key AND p.id < c.id),
     sent AS (
       DELETE FROM ${table} o USING claimed c
        WHERE o.id = c.id AND NOT EXISTS (SELECT 1 FROM held h WHERE h.partition_key = c.partition_key)
       RETURNING o.id, o.topic, o.partition_key, o.envelope::text AS envelope, o.headers)
SELECT n.claimed, s.* FROM (SELECT count(*)::int AS claimed FROM claimed) n LEFT JOIN sent s ON true ORDER BY s.id`;
}

/** Claims a batch with `claimSql` (see `claimStatement`) on a connection of its own from the DataSource's pool. */
export async function claimBatch(dataSource: DataSource, claimSql: string): Promise<ClaimedBatch> {
  const connection = await BatchConnection.take(dataSource);
  const end = async (command: 'COMMIT' | 'ROLLBACK'): Promise<void> => {
    try {
      await connection.query(command);
    } finally {
      connection.giveBack();
    }
  };
  try {
    const results = (await connection.query(claimSql)) as unknown as QueryResult<ClaimRow>[];
    const rows = results[1].rows;
    return {
      claimed: rows.length === 0 ? 0 : rows[0].claimed,
      rows: rows.filter((r): r is ClaimRow & OutboxRow => r.id != null),
      end,
    };
  } catch (e) {
    // Discarded, not rolled back: closing the connection ends its transaction on the server.
    connection.giveBack(e as Error);
    throw e;
  }
}

/**
 * A connection taken from the pool for one batch and given back when the batch ends.
 *
 * pg reports a connection that the server closes between two statements (a restart, a terminated backend, while the
 * batch is being published) as an `error` event on the client. The pool listens for it only while the client is idle
 * in the pool, and an `error` event nobody listens for ends the process: so it is kept here while the connection is
 * out, and the next statement fails with it instead. A connection that failed in any way is discarded, never reused.
 */
class BatchConnection {
  private failure?: Error;
  private returned = false;
  private readonly onError = (e: Error): void => {
    this.failure ??= e;
  };

  private constructor(
    private readonly client: PoolClient,
    private readonly release: (discard?: Error) => void,
  ) {
    client.on('error', this.onError);
  }

  static async take(dataSource: DataSource): Promise<BatchConnection> {
    const [client, release] = (await (dataSource.driver as PostgresDriver).obtainMasterConnection()) as [PoolClient, (discard?: Error) => void];
    return new BatchConnection(client, release);
  }

  async query(sql: string): Promise<QueryResult | QueryResult[]> {
    if (this.failure) throw this.failure;
    try {
      return await this.client.query(sql);
    } catch (e) {
      this.failure ??= e as Error;
      throw e;
    }
  }

  /** Back to the pool, or closed when it failed (`failure` tells why, when the failure came from elsewhere). */
  giveBack(failure?: Error): void {
    if (this.returned) return;
    this.returned = true;
    this.failure ??= failure;
    this.client.removeListener('error', this.onError);
    this.release(this.failure);
  }
}
