import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The outbox and inbox tables every service has in its own schema.
 * The partial indexes keep the relay's claim query cheap however large the
 * table grows: it only ever looks at unpublished rows.
 */
export class MessagingTables1763700000000 implements MigrationInterface {
  name = 'MessagingTables1763700000000';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.outbox (
        id            bigserial PRIMARY KEY,
        event_id      uuid        NOT NULL UNIQUE,
        event_type    text        NOT NULL,
        topic         text        NOT NULL,
        partition_key text        NOT NULL,
        tenant_id     text        NOT NULL,
        envelope      jsonb       NOT NULL,
        headers       jsonb       NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        processed_at  timestamptz,
        attempts      integer     NOT NULL DEFAULT 0,
        last_error    text
      )`);
    await q.query(`CREATE INDEX outbox_unprocessed ON ${s}.outbox (id) WHERE processed_at IS NULL`);
    await q.query(`CREATE INDEX outbox_unprocessed_key ON ${s}.outbox (partition_key, id) WHERE processed_at IS NULL`);
    await q.query(`
      CREATE TABLE ${s}.inbox (
        consumer     text        NOT NULL,
        event_id     uuid        NOT NULL,
        event_type   text        NOT NULL,
        received_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP TABLE ${s}.inbox`);
    await q.query(`DROP TABLE ${s}.outbox`);
  }
}

export const messagingMigrations = [MessagingTables1763700000000];
