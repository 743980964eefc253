import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLOSED_STATUSES, RetentionEventTypes, type RetentionClass } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { collectDue, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from '@dsar/platform/retention';
import { AuditTables } from '../infrastructure/audit-tables';
import { Ledger } from './ledger';

/** A chain head of the page; `due` when its chain may be purged (then `workspace_id` is read). */
type Candidate = { key: string; workspace_id: string | null; newest: Date | null; due: boolean };

/** A request's chain (its subject is the request id); tenant-wide chains (`tenant:<id>`, policy changes) are kept. */
const REQUEST_CHAIN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * Retention of `audit_event` (docs/retention.md): a request's chain counts
 * from its newest entry, which is never before the request's closure, and is
 * purged only once the chain shows the request closed (its newest status is
 * `fulfilled`, `refused` or `closed`, or its request record was purged). The
 * purge replaces the entries through the head by a purge checkpoint holding
 * the head's hash (Ledger.purgeThrough), so the chain stays verifiable; the
 * `dsar.retention.purged.v1` that follows is its next entry.
 */
@Injectable()
export class AuditEventPurger implements RetentionClassPurger {
  readonly retentionClass: RetentionClass = 'audit_event';

  constructor(
    private readonly uow: UnitOfWork,
    private readonly ledger: Ledger,
  ) {}

  private table(name: keyof typeof AuditTables): string {
    return qualifiedTable(this.uow.dataSource, AuditTables[name]);
  }

  /**
   * Each page is a window of the tenant's request chains by request id, due or not, so that one query reads a
   * bounded number of heads however few of them are due (collectDue walks the windows). The closure is looked up
   * only for chains whose newest entry is past the cutoff.
   */
  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]> {
    const entries = this.table('entries');
    const closed = `(SELECT s.payload::jsonb ->> 'status' FROM ${entries} s
                      WHERE s.tenant_id = h.tenant_id AND s.request_id = h.request_id AND s.event_type LIKE 'dsar.request.%' AND s.payload::jsonb ? 'status'
                      ORDER BY s.sequence DESC LIMIT 1) = ANY($4)
                    OR EXISTS (SELECT 1 FROM ${entries} s
                      WHERE s.tenant_id = h.tenant_id AND s.request_id = h.request_id AND s.event_type = '${RetentionEventTypes.purged}'
                        AND s.payload::jsonb ->> 'class' = 'request_record')`;
    return collectDue<Candidate>(
      (after, size) =>
        this.uow.dataSource.query(
          `SELECT c.key, c.newest, c.due,
                  CASE WHEN c.due THEN (SELECT s.payload::jsonb ->> 'workspaceId' FROM ${entries} s
                    WHERE s.tenant_id = $1 AND s.request_id = c.key ORDER BY s.sequence DESC LIMIT 1) END AS workspace_id
             FROM (SELECT h.request_id AS key, e.recorded_at AS newest, CASE WHEN e.recorded_at <= $2 THEN ${closed} ELSE false END AS due
                     FROM (SELECT tenant_id, request_id, sequence FROM ${this.table('heads')}
                            WHERE tenant_id = $1 AND request_id ~ '${REQUEST_CHAIN}' AND ($3::text IS NULL OR request_id > $3)
                            ORDER BY request_id LIMIT $5) h
                     -- A chain purged through its head has no entry there: it is not due, but it is part of the window.
                     LEFT JOIN ${entries} e ON e.tenant_id = h.tenant_id AND e.request_id = h.request_id AND e.sequence = h.sequence) c
            ORDER BY c.key`,
          [tenantId, cutoff, after ?? null, [...CLOSED_STATUSES], size],
        ),
      async (c) => (c.due && c.newest ? { requestId: c.key, workspaceId: c.workspace_id, recordIds: [], files: 0, startedAt: new Date(c.newest) } : null),
      limit,
    ).then((groups) => Promise.all(groups.map(async (g) => ({ ...g, recordIds: await this.eventIdsOf(tenantId, g.requestId as string) }))));
  }

  async purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null> {
    // The head, locked (an append in progress, or another replica's purge, keeps it): its entry must still be old enough.
    const [head]: Array<{ sequence: number }> = await tx.query(
      `SELECT h.sequence::int AS sequence FROM ${this.table('heads')} h
         JOIN ${this.table('entries')} e ON e.tenant_id = h.tenant_id AND e.request_id = h.request_id AND e.sequence = h.sequence
        WHERE h.tenant_id = $1 AND h.request_id = $2 AND e.recorded_at <= $3
        FOR UPDATE OF h SKIP LOCKED`,
      [tenantId, group.requestId, cutoff],
    );
    if (!head) return null;
    const ids = await this.eventIdsOf(tenantId, group.requestId as string, tx);
    const deleted = await this.ledger.purgeThrough(tenantId, group.requestId as string, head.sequence);
    return deleted === 0 ? null : { purged: { ...group, recordIds: ids } };
  }

  /** The event ids of the chain's entries still held, oldest first. */
  private async eventIdsOf(tenantId: string, requestId: string, db: Pick<EntityManager, 'query'> = this.uow.dataSource): Promise<string[]> {
    const rows: Array<{ event_id: string }> = await db.query(`SELECT event_id::text AS event_id FROM ${this.table('entries')} WHERE tenant_id = $1 AND request_id = $2 ORDER BY sequence`, [
      tenantId,
      requestId,
    ]);
    return rows.map((r) => r.event_id);
  }
}
