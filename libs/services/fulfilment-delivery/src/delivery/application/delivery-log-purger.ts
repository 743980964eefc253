import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RequestClosures, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from '@dsar/platform/retention';
import { DeliveryLog } from './delivery-log';

/**
 * Retention of `delivery_log` (docs/retention.md): a request's log entries
 * count from the later of the newest entry and the request's closure, and
 * nothing of an open request goes. The preparation and the challenges stay.
 */
@Injectable()
export class DeliveryLogPurger implements RetentionClassPurger {
  readonly retentionClass: RetentionClass = 'delivery_log';

  constructor(
    private readonly uow: UnitOfWork,
    private readonly log: DeliveryLog,
    private readonly closures: RequestClosures,
  ) {}

  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]> {
    return this.closures.dueGroups(tenantId, cutoff, limit, (after, size) =>
      this.uow.dataSource.query(
        `SELECT request_id::text AS key, min(workspace_id) AS workspace_id, array_agg(seq::text ORDER BY seq) AS ids, max(at) AS newest
           FROM ${qualifiedTable(this.uow.dataSource, 'delivery_log')}
          WHERE tenant_id = $1 AND at <= $2 AND ($3::text IS NULL OR request_id::text > $3)
          GROUP BY request_id ORDER BY request_id::text LIMIT $4`,
        [tenantId, cutoff, after ?? null, size],
      ),
    );
  }

  async purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null> {
    const done = await this.log.purgeIn(tx, tenantId, group.requestId as string, 'system:retention', cutoff);
    return done.ids.length === 0 ? null : { purged: { ...group, recordIds: done.ids, workspaceId: done.workspaceId } };
  }
}
