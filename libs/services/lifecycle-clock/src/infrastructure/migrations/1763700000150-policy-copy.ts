import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * lifecycle-clock's copy of the tenants' pack sets and custom pack documents
 * (from policy-registry's `dsar.policy.v1` events), so intake pins a new
 * request without asking policy-registry; why each request got its version;
 * and the `repin` clock event of an applied upgrade.
 */
export class PolicyCopy1763700000150 implements MigrationInterface {
  name = 'PolicyCopy1763700000150';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.policy_pack_sets (
        tenant_id      text        PRIMARY KEY,
        revision       integer     NOT NULL,
        built_in_pins  jsonb       NOT NULL,
        activations    jsonb       NOT NULL,
        occurred_at    timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE ${s}.policy_custom_packs (
        tenant_id     text  NOT NULL,
        name          text  NOT NULL,
        jurisdiction  text  NOT NULL,
        version       text  NOT NULL,
        document      jsonb NOT NULL,
        PRIMARY KEY (tenant_id, name, jurisdiction, version)
      )`);
    await q.query(`ALTER TABLE ${s}.requests ADD COLUMN policy_basis text`);
    await q.query(`
      ALTER TABLE ${s}.request_clock_events
        DROP CONSTRAINT request_clock_events_kind_check,
        ADD CONSTRAINT request_clock_events_kind_check CHECK (kind IN ('pause', 'resume', 'extension', 'reopen', 'repin')),
        ADD COLUMN from_version text,
        ADD COLUMN to_version text`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DELETE FROM ${s}.request_clock_events WHERE kind = 'repin'`);
    await q.query(`
      ALTER TABLE ${s}.request_clock_events
        DROP COLUMN from_version,
        DROP COLUMN to_version,
        DROP CONSTRAINT request_clock_events_kind_check,
        ADD CONSTRAINT request_clock_events_kind_check CHECK (kind IN ('pause', 'resume', 'extension', 'reopen'))`);
    await q.query(`ALTER TABLE ${s}.requests DROP COLUMN policy_basis`);
    await q.query(`DROP TABLE ${s}.policy_custom_packs`);
    await q.query(`DROP TABLE ${s}.policy_pack_sets`);
  }
}
