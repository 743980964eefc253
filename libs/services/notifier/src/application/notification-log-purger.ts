import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RequestClosures, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from '@dsar/platform/retention';
import { NotificationPurge } from './notification-purge';

/**
 * Retention of `notification_log` (docs/retention.md): a notification counts
 * from the later of its creation and its request's closure; nothing of an
 * open request goes. Tenant-wide ones (the digest, a parked message of no
 * request) count from their creation.
 */
@Injectable()
export class NotificationLogPurger implements RetentionClassPurger {
  readonly retentionClass: RetentionClass = 'notification_log';

  constructor(
    private readonly uow: UnitOfWork,
    private readonly purges: NotificationPurge,
    private readonly closures: RequestClosures,
  ) {}

  due(tenantId: string, cutoff: Date, limit: number): Promise<RetentionGroup[]> {
    // Keyed by request id as text; the tenant-wide group has the empty key and comes first.
    return this.closures.dueGroups(tenantId, cutoff, limit, (after, size) =>
      this.uow.dataSource.query(
        `SELECT COALESCE(request_id::text, '') AS key, min(workspace_id) AS workspace_id, array_agg(id::text ORDER BY id) AS ids, max(created_at) AS newest
           FROM ${qualifiedTable(this.uow.dataSource, 'notifications')} WHERE tenant_id = $1 AND created_at <= $2
          GROUP BY request_id HAVING $3::text IS NULL OR COALESCE(request_id::text, '') > $3
          ORDER BY key LIMIT $4`,
        [tenantId, cutoff, after ?? null, size],
      ),
    );
  }

  async purge(tx: EntityManager, tenantId: string, group: RetentionGroup, cutoff: Date): Promise<RetentionPurge | null> {
    const purged = await this.purges.purge(tx, tenantId, group.requestId, cutoff, group.recordIds);
    return purged.ids.length === 0 ? null : { purged: { ...group, recordIds: purged.ids, workspaceId: purged.workspaceId ?? group.workspaceId } };
  }
}
