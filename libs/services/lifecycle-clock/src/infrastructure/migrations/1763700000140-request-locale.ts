import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** The requester's language (ISO 639-1) as intake read it from the raw text; null when not recognised, and for older rows. */
export class RequestLocale1763700000140 implements MigrationInterface {
  name = 'RequestLocale1763700000140';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.requests ADD COLUMN locale text`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.requests DROP COLUMN locale`);
  }
}
