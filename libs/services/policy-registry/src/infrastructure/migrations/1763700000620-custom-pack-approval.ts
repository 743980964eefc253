import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * Four eyes on custom packs: who approved each registered version, and when.
 * A version left unapproved cannot be activated while the tenant requires
 * four eyes.
 *
 * A version in force when this runs was put there under the earlier rules,
 * where activating it was the decision: it counts as approved by whoever
 * activated it first, at that time, so it keeps working and can be activated
 * for another scope. A version registered but never activated waits for a
 * second admin like a new one (docs/policy-packs/README.md, "Four eyes").
 */
export class CustomPackApproval1763700000620 implements MigrationInterface {
  name = 'CustomPackApproval1763700000620';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.custom_packs ADD COLUMN approved_by text, ADD COLUMN approved_at timestamptz`);
    await q.query(`
      UPDATE ${s}.custom_packs AS p
      SET approved_by = first.activated_by, approved_at = first.activated_at
      FROM (
        SELECT DISTINCT ON (tenant_id, name, jurisdiction, version) tenant_id, name, jurisdiction, version, activated_by, activated_at
        FROM ${s}.custom_pack_activations
        ORDER BY tenant_id, name, jurisdiction, version, activated_at
      ) AS first
      WHERE p.tenant_id = first.tenant_id AND p.name = first.name AND p.jurisdiction = first.jurisdiction AND p.version = first.version`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.custom_packs DROP COLUMN approved_at, DROP COLUMN approved_by`);
  }
}
