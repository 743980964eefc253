import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** The copy of the tenants' retention policies in a service that owns a retention class (RetentionRuleEntity). */
export class RetentionRules1763700000060 implements MigrationInterface {
  name = 'RetentionRules1763700000060';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.retention_rules (
        tenant_id          text        NOT NULL,
        class              text        NOT NULL,
        min_days           integer     NOT NULL CHECK (min_days >= 0),
        max_days           integer     NOT NULL CHECK (max_days >= min_days),
        purge_enabled      boolean     NOT NULL,
        legal_hold_enabled boolean     NOT NULL,
        updated_at         timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, class)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.retention_rules`);
  }
}

export const retentionMigrations = [RetentionRules1763700000060];
