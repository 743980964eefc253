import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

export class LedgerEvents1763700000200 implements MigrationInterface {
  name = 'LedgerEvents1763700000200';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.ledger_events (
        id          bigserial   PRIMARY KEY,
        tenant_id   text        NOT NULL,
        request_id  text        NOT NULL,
        event_id    uuid        NOT NULL UNIQUE,
        event_type  text        NOT NULL,
        source      text        NOT NULL,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        payload     jsonb       NOT NULL
      )`);
    await q.query(`CREATE INDEX ledger_events_request ON ${s}.ledger_events (tenant_id, request_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.ledger_events`);
  }
}
