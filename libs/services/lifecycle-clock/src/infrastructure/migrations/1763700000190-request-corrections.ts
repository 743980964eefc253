import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * Corrections of a request's type or jurisdiction (`POST /requests/:id/corrections`): a `correction` clock event
 * whose `correction` column keeps what it changed (type, jurisdiction, pack version, deadline, before and after);
 * its `note` is the operator's reason.
 */
export class RequestCorrections1763700000190 implements MigrationInterface {
  name = 'RequestCorrections1763700000190';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      ALTER TABLE ${s}.request_clock_events
        DROP CONSTRAINT request_clock_events_kind_check,
        ADD CONSTRAINT request_clock_events_kind_check CHECK (kind IN ('pause', 'resume', 'extension', 'reopen', 'repin', 'correction')),
        ADD COLUMN correction jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DELETE FROM ${s}.request_clock_events WHERE kind = 'correction'`);
    await q.query(`
      ALTER TABLE ${s}.request_clock_events
        DROP COLUMN correction,
        DROP CONSTRAINT request_clock_events_kind_check,
        ADD CONSTRAINT request_clock_events_kind_check CHECK (kind IN ('pause', 'resume', 'extension', 'reopen', 'repin'))`);
  }
}
