import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotificationEventTypes, type NotificationsPurgedV1 } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';

/** What a purge deleted: the notifications' ids and how many attempts went with them. */
export interface PurgedNotifications {
  ids: string[];
  workspaceId: string | null;
  attempts: number;
}

/**
 * The purge of the retention class `notification_log`: notifications with
 * their sends and attempts go, and, for a request's, `dsar.notification.purged.v1`
 * says which, in the same transaction. The retention sweep (NotificationLogPurger)
 * decides when; this only does it.
 */
@Injectable()
export class NotificationPurge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
  ) {}

  /** Every notification of a request. */
  async purgeRequest(tenantId: string, requestId: string): Promise<{ notifications: number; attempts: number }> {
    const purged = await this.uow.run((tx) => this.purge(tx, tenantId, requestId));
    return { notifications: purged.ids.length, attempts: purged.attempts };
  }

  /**
   * The notifications of a request (or the tenant-wide ones, `requestId` null) created at or before `createdBy`
   * and, when given, among `ids`, in the caller's transaction. Rows another transaction holds are left to it.
   */
  async purge(tx: EntityManager, tenantId: string, requestId: string | null, createdBy?: Date, ids?: string[]): Promise<PurgedNotifications> {
    const table = (name: string) => qualifiedTable(this.uow.dataSource, name);
    const chosen = `SELECT id FROM ${table('notifications')}
                     WHERE tenant_id = $1 AND request_id IS NOT DISTINCT FROM $2::uuid
                       AND ($3::timestamptz IS NULL OR created_at <= $3) AND ($4::uuid[] IS NULL OR id = ANY($4))
                     FOR UPDATE SKIP LOCKED`;
    // Through a CTE: a bare DELETE … RETURNING answers [rows, count] through TypeORM. Sends and attempts go with
    // their notification (ON DELETE CASCADE); the statement's snapshot still sees the attempts, so each deleted
    // notification counts its own.
    const deleted: Array<{ id: string; workspace_id: string | null; attempts: number }> = await tx.query(
      `WITH deleted AS (DELETE FROM ${table('notifications')} WHERE id IN (${chosen}) RETURNING id, workspace_id)
       SELECT d.id::text AS id, d.workspace_id, (SELECT count(*)::int FROM ${table('notification_attempts')} a WHERE a.notification_id = d.id) AS attempts
         FROM deleted d ORDER BY d.id`,
      [tenantId, requestId, createdBy ?? null, ids ?? null],
    );
    const purged = { ids: deleted.map((d) => d.id), workspaceId: deleted[0]?.workspace_id ?? null, attempts: deleted.reduce((n, d) => n + d.attempts, 0) };
    if (deleted.length > 0 && requestId) {
      await this.outbox.record(tx, {
        type: NotificationEventTypes.purged,
        subject: requestId,
        tenantId,
        data: { requestId, tenantId, workspaceId: purged.workspaceId, occurredAt: this.clock.now().toISOString(), notificationIds: purged.ids, attempts: purged.attempts } satisfies NotificationsPurgedV1,
      });
    }
    return purged;
  }
}
