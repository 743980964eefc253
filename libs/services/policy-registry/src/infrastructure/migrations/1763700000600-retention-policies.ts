import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** policy-registry's retention policies: one row per tenant and class that was ever set. */
export class RetentionPolicies1763700000600 implements MigrationInterface {
  name = 'RetentionPolicies1763700000600';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.retention_policies (
        id                 uuid        PRIMARY KEY,
        tenant_id          text        NOT NULL,
        class              text        NOT NULL,
        min_days           integer     NOT NULL CHECK (min_days >= 0),
        max_days           integer     NOT NULL CHECK (max_days >= min_days),
        purge_enabled      boolean     NOT NULL,
        legal_hold_enabled boolean     NOT NULL,
        updated_at         timestamptz NOT NULL,
        updated_by         text        NOT NULL,
        UNIQUE (tenant_id, class)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.retention_policies`);
  }
}
