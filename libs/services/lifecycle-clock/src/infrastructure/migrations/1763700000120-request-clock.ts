import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** The clock events of each request (pauses, resumes, extensions) and the paused flag the queue and monitors read. */
export class RequestClock1763700000120 implements MigrationInterface {
  name = 'RequestClock1763700000120';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.requests ADD COLUMN clock_paused_since timestamptz`);
    await q.query(`
      CREATE TABLE ${s}.request_clock_events (
        id                uuid PRIMARY KEY,
        tenant_id         text        NOT NULL,
        request_id        uuid        NOT NULL REFERENCES ${s}.requests (id),
        seq               integer     NOT NULL,
        kind              text        NOT NULL CHECK (kind IN ('pause', 'resume', 'extension')),
        pause_reason      text        CHECK (pause_reason IN ('verification', 'clarification', 'fee')),
        occurred_at       timestamptz NOT NULL,
        recorded_at       timestamptz NOT NULL DEFAULT now(),
        actor             text        NOT NULL,
        additional_days   integer,
        additional_months integer,
        justification     text,
        extension_reason  text,
        note              text,
        UNIQUE (request_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP TABLE ${s}.request_clock_events`);
    await q.query(`ALTER TABLE ${s}.requests DROP COLUMN clock_paused_since`);
  }
}
