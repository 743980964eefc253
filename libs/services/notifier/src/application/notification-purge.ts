import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotificationEventTypes, type NotificationsPurgedV1 } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { NOTIFIER_CHANNELS, type NotifierChannels } from './dispatcher';

/** What a purge deleted: the notifications' ids and how many attempts went with them. */
export interface PurgedNotifications {
  ids: string[];
  workspaceId: string | null;
  attempts: number;
}

/**
 * The purge of the retention class `notification_log`: notifications with
 * their sends and attempts go, and, for a request's, `dsar.notification.purged.v1`
 * says which, in the same transaction. So do the copies the email channel keeps
 * of their messages (the `.eml` files of embedded mode, named by the send's id):
 * removed before the commit, so that no crash leaves a purged person's name and
 * address on disk (a rollback only loses copies of messages that were due to go).
 * The retention sweep (NotificationLogPurger) decides when; this only does it.
 */
@Injectable()
export class NotificationPurge {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    @Inject(NOTIFIER_CHANNELS) private readonly channels: NotifierChannels,
  ) {}

  /** Every notification of a request. */
  async purgeRequest(tenantId: string, requestId: string): Promise<{ notifications: number; attempts: number }> {
    const purged = await this.uow.run((tx) => this.purge(tx, tenantId, requestId));
    return { notifications: purged.ids.length, attempts: purged.attempts };
  }

  /**
   * The notifications of a request (or the tenant-wide ones, `requestId` null) created at or before `createdBy`
   * and, when given, among `ids`, in the caller's transaction. Rows another transaction holds are left to it, and
   * so is a notification one of whose sends a dispatcher holds: claimed now (row lock), or being sent under its
   * lease, when its message may be written after this purge looked for it. A later sweep takes them.
   */
  async purge(tx: EntityManager, tenantId: string, requestId: string | null, createdBy?: Date, ids?: string[]): Promise<PurgedNotifications> {
    const table = (name: string) => qualifiedTable(this.uow.dataSource, name);
    const params = [tenantId, requestId, createdBy ?? null, ids ?? null];
    const candidates = `SELECT n.id FROM ${table('notifications')} n
                         WHERE n.tenant_id = $1 AND n.request_id IS NOT DISTINCT FROM $2::uuid
                           AND ($3::timestamptz IS NULL OR n.created_at <= $3) AND ($4::uuid[] IS NULL OR n.id = ANY($4))`;
    // The sends are locked first, skipping any a dispatcher is claiming right now; the DELETE below, a later
    // statement, then also sees every claim that committed meanwhile, and leaves both kinds of notification alone.
    const locked: Array<{ id: string }> = await tx.query(`SELECT id::text AS id FROM ${table('notification_sends')} WHERE notification_id IN (${candidates}) FOR UPDATE SKIP LOCKED`, params);
    const chosen = `${candidates}
                       AND NOT EXISTS (SELECT 1 FROM ${table('notification_sends')} s
                                        WHERE s.notification_id = n.id AND (s.claimed_until > now() OR NOT s.id = ANY($5::uuid[])))
                     FOR UPDATE SKIP LOCKED`;
    // Through a CTE: a bare DELETE … RETURNING answers [rows, count] through TypeORM. Sends and attempts go with
    // their notification (ON DELETE CASCADE); the statement's snapshot still sees them, so each deleted
    // notification counts its own attempts and names its email sends.
    const deleted: Array<{ id: string; workspace_id: string | null; attempts: number; email_sends: string[] }> = await tx.query(
      `WITH deleted AS (DELETE FROM ${table('notifications')} WHERE id IN (${chosen}) RETURNING id, workspace_id)
       SELECT d.id::text AS id, d.workspace_id, (SELECT count(*)::int FROM ${table('notification_attempts')} a WHERE a.notification_id = d.id) AS attempts,
              ARRAY(SELECT s.id::text FROM ${table('notification_sends')} s WHERE s.notification_id = d.id AND s.channel = 'email') AS email_sends
         FROM deleted d ORDER BY d.id`,
      [...params, locked.map((l) => l.id)],
    );
    await this.channels.email.removeCopies?.(deleted.flatMap((d) => d.email_sends));
    const purged = { ids: deleted.map((d) => d.id), workspaceId: deleted[0]?.workspace_id ?? null, attempts: deleted.reduce((n, d) => n + d.attempts, 0) };
    if (deleted.length > 0 && requestId) {
      await this.outbox.record(tx, {
        type: NotificationEventTypes.purged,
        subject: requestId,
        tenantId,
        data: {
          requestId,
          tenantId,
          workspaceId: purged.workspaceId,
          occurredAt: this.clock.now().toISOString(),
          notificationIds: purged.ids,
          attempts: purged.attempts,
        } satisfies NotificationsPurgedV1,
      });
    }
    return purged;
  }
}
