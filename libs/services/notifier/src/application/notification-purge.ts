import { Injectable } from '@nestjs/common';
import { NotificationEventTypes, type NotificationsPurgedV1 } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';

/**
 * The purge of the retention class `notification_log` for one request: its
 * notifications with their sends and attempts go, and
 * `dsar.notification.purged.v1` says which, in the same transaction. The
 * retention sweep decides when; this only does it.
 */
@Injectable()
export class NotificationPurge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  async purgeRequest(tenantId: string, requestId: string): Promise<{ notifications: number; attempts: number }> {
    return this.uow.run(async (tx) => {
      const table = (name: string) => qualifiedTable(this.uow.dataSource, name);
      const [{ count }]: Array<{ count: string }> = await tx.query(`SELECT count(*) AS count FROM ${table('notification_attempts')} WHERE tenant_id = $1 AND request_id = $2`, [tenantId, requestId]);
      // Sends and attempts go with their notification (ON DELETE CASCADE).
      // Through a CTE: a bare DELETE … RETURNING answers [rows, count] through TypeORM.
      const deleted: Array<{ id: string; workspace_id: string | null }> = await tx.query(
        `WITH deleted AS (DELETE FROM ${table('notifications')} WHERE tenant_id = $1 AND request_id = $2 RETURNING id, workspace_id) SELECT id, workspace_id FROM deleted`,
        [tenantId, requestId],
      );
      if (deleted.length === 0) return { notifications: 0, attempts: 0 };
      await this.outbox.record(tx, {
        type: NotificationEventTypes.purged,
        subject: requestId,
        tenantId,
        data: { requestId, tenantId, workspaceId: deleted[0].workspace_id, occurredAt: this.clock.now().toISOString(), notificationIds: deleted.map((d) => d.id).sort(), attempts: Number(count) } satisfies NotificationsPurgedV1,
      });
      return { notifications: deleted.length, attempts: Number(count) };
    });
  }
}
