import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

export class Requests1763700000100 implements MigrationInterface {
  name = 'Requests1763700000100';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.requests (
        id                 uuid        PRIMARY KEY,
        tenant_id          text        NOT NULL,
        workspace_id       text,
        jurisdiction       text        NOT NULL,
        request_type       text        NOT NULL,
        status             text        NOT NULL,
        channel            text        NOT NULL,
        received_at        timestamptz NOT NULL,
        intake_received_at timestamptz NOT NULL,
        created_at         timestamptz NOT NULL DEFAULT now(),
        updated_at         timestamptz NOT NULL DEFAULT now(),
        version            integer     NOT NULL
      )`);
    await q.query(`CREATE INDEX requests_tenant_received ON ${s}.requests (tenant_id, received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.requests`);
  }
}
