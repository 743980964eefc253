import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CLOSED_STATUSES, type RetentionClass } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { collectDue, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from '@dsar/platform/retention';

type Candidate = { key: string; workspace_id: string | null; status_changed_at: Date };

/**
 * Retention of `request_record` (docs/retention.md): a request counts from
 * its closure, the moment it entered `fulfilled`, `refused` or `closed`, and
 * is never purged while open or with an appeal open. Purging deletes the
 * request with its clock events, workflow steps (and the words in them),
 * appeals, deadline alerts, its copy of the request's data-system tasks and its rows of the identity index (nothing
 * is left that links the person to the tenant). Its audit chain is another class.
 */
@Injectable()
export class RequestRecordPurger implements RetentionClassPurger {
  readonly retentionClass: RetentionClass = 'request_record';

  constructor(private readonly uow: UnitOfWork) {}

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }

  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]> {
    return collectDue<Candidate>(
      (after, size) =>
        this.uow.dataSource.query(
          `SELECT id::text AS key, workspace_id, status_changed_at FROM ${this.table('requests')}
            WHERE tenant_id = $1 AND status = ANY($2) AND status_changed_at <= $3 AND open_appeal_id IS NULL
              AND ($4::text IS NULL OR id::text > $4)
            ORDER BY id::text LIMIT $5`,
          [tenantId, [...CLOSED_STATUSES], cutoff, after ?? null, size],
        ),
      async (c) => ({ requestId: c.key, workspaceId: c.workspace_id, recordIds: [c.key], files: 0, startedAt: new Date(c.status_changed_at) }),
      limit,
    );
  }

  async purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null> {
    // Taken with a row lock, and only while still closed long enough: a reopening or another replica's purge wins.
    const [row]: Array<{ id: string }> = await tx.query(
      `SELECT id FROM ${this.table('requests')}
        WHERE id = $1 AND tenant_id = $2 AND status = ANY($3) AND status_changed_at <= $4 AND open_appeal_id IS NULL
        FOR UPDATE SKIP LOCKED`,
      [group.requestId, tenantId, [...CLOSED_STATUSES], cutoff],
    );
    if (!row) return null;
    for (const dependent of ['request_identities', 'request_system_tasks', 'request_deadline_alerts', 'request_appeals', 'request_transitions', 'request_clock_events']) {
      await tx.query(`DELETE FROM ${this.table(dependent)} WHERE request_id = $1`, [row.id]);
    }
    await tx.query(`DELETE FROM ${this.table('requests')} WHERE id = $1`, [row.id]);
    return { purged: group };
  }
}
