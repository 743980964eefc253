import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * Triage: a request whose type intake could not read with confidence is recorded without one (`request_type` null)
 * and says why (`triage_reason`, with intake's best guess in `suggested_type`), until an operator names the type with
 * a correction. Beside it, what intake read from the letter: every right it asks for (`requested_rights`), the
 * reading's confidence, and the language detected (any language; `locale` keeps only those intake reads). The check
 * keeps a request without a type from having no reason. The queue's `triage` filter needs no index of its own:
 * `requests_queue_type` (tenant, type, receipt, id) holds the null types too, in the queue's default order.
 */
export class RequestTriage1763700000200 implements MigrationInterface {
  name = 'RequestTriage1763700000200';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      ALTER TABLE ${s}.requests
        ALTER COLUMN request_type DROP NOT NULL,
        ADD COLUMN requested_rights jsonb NOT NULL DEFAULT '[]'::jsonb,
        ADD COLUMN type_confidence double precision,
        ADD COLUMN detected_language text,
        ADD COLUMN triage_reason text,
        ADD COLUMN suggested_type text,
        ADD CONSTRAINT requests_type_or_triage CHECK (request_type IS NOT NULL OR triage_reason IS NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    // A request still in triage has no type to go back to: guessing one would put it on a wrong clock, so the undo stops.
    const [{ n }] = await q.query(`SELECT count(*)::int AS n FROM ${s}.requests WHERE request_type IS NULL`);
    if (Number(n) > 0) throw new Error(`${n} request(s) are in triage (no request type): name their types with a correction before undoing RequestTriage1763700000200`);
    await q.query(`
      ALTER TABLE ${s}.requests
        DROP CONSTRAINT requests_type_or_triage,
        DROP COLUMN suggested_type,
        DROP COLUMN triage_reason,
        DROP COLUMN detected_language,
        DROP COLUMN type_confidence,
        DROP COLUMN requested_rights,
        ALTER COLUMN request_type SET NOT NULL`);
  }
}
