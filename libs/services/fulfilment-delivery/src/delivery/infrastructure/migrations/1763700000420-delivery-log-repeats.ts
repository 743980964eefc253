import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** Repeated refusals counted in one delivery log entry instead of one entry (and one event) each. */
export class DeliveryLogRepeats1763700000420 implements MigrationInterface {
  name = 'DeliveryLogRepeats1763700000420';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.delivery_log ADD COLUMN repeats integer NOT NULL DEFAULT 1 CHECK (repeats >= 1), ADD COLUMN last_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.delivery_log DROP COLUMN last_at, DROP COLUMN repeats`);
  }
}
