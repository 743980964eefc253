import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * Links of the person's download page (docs/delivery.md): a step-up challenge issued for the person carries the key the
 * notifier asked with, the salt its credential and code are derived from (neither is stored), the language of the page,
 * and once its code was entered the hash of the session that opens the downloads.
 */
export class DeliveryLinks1763700000470 implements MigrationInterface {
  name = 'DeliveryLinks1763700000470';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      ALTER TABLE ${s}.delivery_step_up_challenges
        ADD COLUMN link_key text,
        ADD COLUMN link_salt text CHECK (link_salt ~ '^[0-9a-f]{32}$'),
        ADD COLUMN link_language text,
        ADD COLUMN session_hash text UNIQUE CHECK (session_hash ~ '^[0-9a-f]{64}$'),
        ADD COLUMN session_expires_at timestamptz,
        ADD CONSTRAINT delivery_link_complete CHECK ((link_key IS NULL) = (link_salt IS NULL)),
        ADD CONSTRAINT delivery_link_session CHECK ((session_hash IS NULL) = (session_expires_at IS NULL))`);
    // One link per notification event of a request: the notifier asking again gets the same one.
    await q.query(`CREATE UNIQUE INDEX delivery_link_key ON ${s}.delivery_step_up_challenges (tenant_id, request_id, link_key) WHERE link_key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP INDEX ${s}.delivery_link_key`);
    await q.query(`
      ALTER TABLE ${s}.delivery_step_up_challenges
        DROP CONSTRAINT delivery_link_session, DROP CONSTRAINT delivery_link_complete,
        DROP COLUMN session_expires_at, DROP COLUMN session_hash, DROP COLUMN link_language, DROP COLUMN link_salt, DROP COLUMN link_key`);
  }
}
