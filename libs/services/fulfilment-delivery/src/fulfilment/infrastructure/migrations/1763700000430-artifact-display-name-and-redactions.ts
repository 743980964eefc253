import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * An artifact's display name (its first version's file name, kept across replacements: the name it is delivered
 * under) and why a version replaced the one before (the redaction's reason, when one was given).
 */
export class ArtifactDisplayNameAndRedactions1763700000430 implements MigrationInterface {
  name = 'ArtifactDisplayNameAndRedactions1763700000430';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifacts ADD COLUMN filename text`);
    await q.query(`
      UPDATE ${s}.fulfilment_artifacts a
         SET filename = COALESCE((SELECT v.filename FROM ${s}.fulfilment_artifact_versions v WHERE v.artifact_id = a.id ORDER BY v.version LIMIT 1), a.title)`);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifacts ALTER COLUMN filename SET NOT NULL`);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifact_versions ADD COLUMN redaction_reason text`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifact_versions DROP COLUMN redaction_reason`);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifacts DROP COLUMN filename`);
  }
}
