import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProblemError } from '@dsar/platform/errors';
import { quoteIdent, type SqlWrite, UnitOfWork } from '@dsar/platform/persistence';
import { inBatches, type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { IDEMPOTENCY_RETENTION_HOURS, streamedFingerprintParts } from './idempotency-key';

export const IDEMPOTENCY_SCHEMA = Symbol('IDEMPOTENCY_SCHEMA');

/** A key as the draft scopes it: per tenant and per caller. */
export interface IdempotencyScope {
  tenantId: string;
  principal: string;
  key: string;
}

/** A replay carries the fingerprint it was recorded under: a streamed body's is only compared once the body has been read. */
export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown; fingerprint: string };

/**
 * How long a claim blocks a retry before it is presumed abandoned (a crashed process never completes it). The
 * execution that holds it renews it every CLAIM_RENEW_MS, so a long request keeps its key however long it runs, while
 * a retry after a crash waits at most this long.
 */
const CLAIM_LEASE_SECONDS = 15;
export const CLAIM_RENEW_MS = 5_000;
/** How often expired keys are deleted. */
const PURGE_INTERVAL_MS = 3_600_000;
/** Expired keys deleted per statement: a day of keys goes in short statements that leave the requests their turns (ADR 0043). */
const PURGE_BATCH = 1_000;

@Injectable()
export class IdempotencyStore implements OnModuleInit, OnModuleDestroy {
  private readonly table: string;
  private readonly purge: PeriodicJob<number>;

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(IDEMPOTENCY_SCHEMA) schema: string,
  ) {
    this.table = `${quoteIdent(schema)}.idempotency_keys`;
    // The schema is the service's own (one per service), so it names the service in the job's metrics.
    this.purge = new PeriodicJob({ service: schema, name: 'idempotency-purge', intervalMs: PURGE_INTERVAL_MS, log: new Logger('IdempotencyStore') }, (run) => this.purgeExpired(run));
  }

  onModuleInit(): void {
    this.purge.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.purge.stop();
  }

  /**
   * Claims the key for a new execution, in its own committed statement so that
   * a concurrent duplicate sees it at once. A key that expired, or whose
   * claim was abandoned with the same request, is taken over. For a streamed body (`streamedBody`) the fingerprint is
   * its head's: a completed record holds the whole request's (streamedBodyFingerprint), whose head is compared here
   * and whose body the caller compares after reading it.
   */
  async claim(scope: IdempotencyScope, fingerprint: string, options: { streamedBody?: boolean } = {}): Promise<Claim> {
    const claimed: unknown[] = await this.uow.dataSource.query(
      `INSERT INTO ${this.table} AS k (tenant_id, principal, key, fingerprint, state, locked_until, expires_at)
       VALUES ($1, $2, $3, $4, 'processing', now() + make_interval(secs => $5), now() + make_interval(hours => $6))
       ON CONFLICT (tenant_id, principal, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, state = 'processing', locked_until = EXCLUDED.locked_until,
             response_status = NULL, response_body = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
         WHERE k.expires_at < now()
            OR (k.state = 'processing' AND k.locked_until < now() AND k.fingerprint = EXCLUDED.fingerprint)
       RETURNING 1`,
      [scope.tenantId, scope.principal, scope.key, fingerprint, CLAIM_LEASE_SECONDS, IDEMPOTENCY_RETENTION_HOURS],
    );
    if (claimed.length > 0) return { kind: 'claimed' };

    const rows: { fingerprint: string; state: string; response_status: number | null; response_body: unknown }[] = await this.uow.dataSource.query(
      `SELECT fingerprint, state, response_status, response_body FROM ${this.table} WHERE tenant_id = $1 AND principal = $2 AND key = $3`,
      [scope.tenantId, scope.principal, scope.key],
    );
    const existing = rows[0];
    // Released between our insert and this read: the caller may simply retry.
    if (!existing) throw new ProblemError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'The first request with this Idempotency-Key just finished without a result; retry.');
    const recorded = options.streamedBody && existing.state === 'completed' ? streamedFingerprintParts(existing.fingerprint)?.head : existing.fingerprint;
    if (recorded !== fingerprint) {
      throw new ProblemError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request (method, path or body). Use a new key for a new request.');
    }
    if (existing.state !== 'completed' || existing.response_status === null) {
      throw new ProblemError('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'The first request with this Idempotency-Key is still being processed; retry shortly.', undefined, {}, { 'Retry-After': '1' });
    }
    return { kind: 'replay', status: existing.response_status, body: existing.response_body, fingerprint: existing.fingerprint };
  }

  /**
   * Records the response in the command's own transaction: it exists exactly when the state change does. The UPDATE
   * is deferred to the end of the unit of work (`UnitOfWork.defer`), so it goes to the database in one statement with
   * the rows the command deferred there too (a create's request, index and outbox rows).
   */
  complete(tx: EntityManager, scope: IdempotencyScope, status: number, body: unknown): void {
    this.uow.defer(tx, this.completion(scope, status, body));
  }

  /**
   * Records the response of a command whose changes committed in transactions of their own (`ownTransactions`, a
   * streamed upload): one statement, which commits by itself. A streamed body's request records its whole fingerprint
   * (`fingerprint`), known only once the body has been read.
   */
  async completeAlone(scope: IdempotencyScope, status: number, body: unknown, fingerprint?: string): Promise<void> {
    const update = this.completion(scope, status, body, fingerprint);
    await this.uow.dataSource.query(update.sql, [...update.params]);
  }

  private completion(scope: IdempotencyScope, status: number, body: unknown, fingerprint?: string): SqlWrite {
    return {
      sql: `UPDATE ${this.table} SET state = 'completed', response_status = $4, response_body = $5::jsonb, fingerprint = COALESCE($6::text, fingerprint)
       WHERE tenant_id = $1 AND principal = $2 AND key = $3`,
      params: [scope.tenantId, scope.principal, scope.key, status, JSON.stringify(body ?? null), fingerprint ?? null],
    };
  }

  /** Extends the lease of a claim whose execution is still running. */
  async renew(scope: IdempotencyScope): Promise<void> {
    await this.uow.dataSource.query(
      `UPDATE ${this.table} SET locked_until = now() + make_interval(secs => $4)
       WHERE tenant_id = $1 AND principal = $2 AND key = $3 AND state = 'processing'`,
      [scope.tenantId, scope.principal, scope.key, CLAIM_LEASE_SECONDS],
    );
  }

  /** Frees the key after a failed execution: nothing changed, so the same key may be retried. */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.uow.dataSource.query(`DELETE FROM ${this.table} WHERE tenant_id = $1 AND principal = $2 AND key = $3 AND state = 'processing'`, [scope.tenantId, scope.principal, scope.key]);
  }

  /** Deletes the expired keys, PURGE_BATCH per statement (batches that yield); returns how many. */
  async purgeExpired(run?: Pick<JobRun, 'stopping'>): Promise<number> {
    let purged = 0;
    await inBatches(
      async () => {
        // Counted in SQL: a bare DELETE … RETURNING answers [rows, count] through TypeORM, whose length is always 2. The
        // expiry is checked again on the row deleted: a key taken over since the inner read has a new one.
        const [{ count }]: Array<{ count: number }> = await this.uow.dataSource.query(
          `WITH deleted AS (
             DELETE FROM ${this.table} WHERE expires_at < now()
                AND (tenant_id, principal, key) IN (SELECT tenant_id, principal, key FROM ${this.table} WHERE expires_at < now() LIMIT $1)
             RETURNING 1)
           SELECT count(*)::int AS count FROM deleted`,
          [PURGE_BATCH],
        );
        purged += count;
        return count === PURGE_BATCH;
      },
      { stopping: () => run?.stopping ?? false },
    );
    return purged;
  }
}
