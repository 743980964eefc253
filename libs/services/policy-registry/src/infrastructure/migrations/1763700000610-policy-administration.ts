import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * Policy administration: each tenant's pack set (built-in pins and a revision
 * that orders its changes), the custom packs tenants registered (never
 * changed once stored), their activations per tenant or workspace, and the
 * upgrade proposals.
 */
export class PolicyAdministration1763700000610 implements MigrationInterface {
  name = 'PolicyAdministration1763700000610';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.tenant_pack_sets (
        tenant_id      text        PRIMARY KEY,
        revision       integer     NOT NULL,
        built_in_pins  jsonb       NOT NULL,
        updated_at     timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE ${s}.custom_packs (
        tenant_id           text        NOT NULL,
        name                text        NOT NULL,
        jurisdiction        text        NOT NULL,
        version             text        NOT NULL,
        version_key         integer[]   NOT NULL,
        release_type        text        NOT NULL,
        changelog           text        NOT NULL,
        compatibility_notes text        NOT NULL,
        document            jsonb       NOT NULL,
        published_at        timestamptz NOT NULL,
        registered_at       timestamptz NOT NULL,
        registered_by       text        NOT NULL,
        PRIMARY KEY (tenant_id, name, jurisdiction, version)
      )`);
    await q.query(`
      CREATE TABLE ${s}.custom_pack_activations (
        tenant_id     text        NOT NULL,
        workspace_id  text        NOT NULL DEFAULT '',
        jurisdiction  text        NOT NULL,
        name          text        NOT NULL,
        version       text        NOT NULL,
        activated_at  timestamptz NOT NULL,
        activated_by  text        NOT NULL,
        PRIMARY KEY (tenant_id, workspace_id, jurisdiction)
      )`);
    await q.query(`
      CREATE TABLE ${s}.policy_upgrade_proposals (
        id            uuid        PRIMARY KEY,
        tenant_id     text        NOT NULL,
        status        text        NOT NULL CHECK (status IN ('pending_approval', 'approved', 'applied')),
        repin         boolean     NOT NULL,
        changes       jsonb       NOT NULL,
        proposed_by   text        NOT NULL,
        proposed_at   timestamptz NOT NULL,
        approved_by   text,
        approved_at   timestamptz,
        applied_by    text,
        applied_at    timestamptz
      )`);
    await q.query(`CREATE INDEX policy_upgrade_proposals_tenant ON ${s}.policy_upgrade_proposals (tenant_id, proposed_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    for (const table of ['policy_upgrade_proposals', 'custom_pack_activations', 'custom_packs', 'tenant_pack_sets']) await q.query(`DROP TABLE ${s}.${table}`);
  }
}
