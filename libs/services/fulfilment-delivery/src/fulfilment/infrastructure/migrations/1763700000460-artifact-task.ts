import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The data system and task an artifact answers (a connector's file or rows for an access task): null for the
 * files people upload. The manifest lists each system with its files, and a task's view its own.
 */
export class ArtifactTask1763700000460 implements MigrationInterface {
  name = 'ArtifactTask1763700000460';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifacts ADD COLUMN system_key text, ADD COLUMN task_id uuid`);
    // A task's files are read by task id (its view, the manifest's systems); most artifacts have none.
    await q.query(`CREATE INDEX fulfilment_artifacts_task_idx ON ${s}.fulfilment_artifacts (task_id) WHERE task_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP INDEX ${s}.fulfilment_artifacts_task_idx`);
    await q.query(`ALTER TABLE ${s}.fulfilment_artifacts DROP COLUMN task_id, DROP COLUMN system_key`);
  }
}
