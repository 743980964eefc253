import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * Notifications to the owner of a data system about its task (audience `owner`: task_assigned, task_overdue). The
 * owner's address comes with the task event and is kept on the notification (`recipient`: `{email?, slackChannel?}`),
 * since the composer has no service to read it from at send time; it is purged with the request's notifications.
 */
export class OwnerNotifications1763700000510 implements MigrationInterface {
  name = 'OwnerNotifications1763700000510';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      ALTER TABLE ${s}.notifications
        DROP CONSTRAINT notifications_audience_check,
        ADD CONSTRAINT notifications_audience_check CHECK (audience IN ('subject', 'operators', 'owner')),
        ADD COLUMN recipient jsonb,
        ADD CONSTRAINT notifications_owner_recipient CHECK ((audience = 'owner') = (recipient IS NOT NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DELETE FROM ${s}.notifications WHERE audience = 'owner'`);
    await q.query(`
      ALTER TABLE ${s}.notifications
        DROP CONSTRAINT notifications_owner_recipient,
        DROP COLUMN recipient,
        DROP CONSTRAINT notifications_audience_check,
        ADD CONSTRAINT notifications_audience_check CHECK (audience IN ('subject', 'operators'))`);
  }
}
