import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The intake snapshot, the pinned policy and the due time on the request row,
 * and the indexes the queue needs: every sort order and the at-risk filter
 * are index scans within a tenant, however many requests it holds.
 */
export class RequestIntake1763700000110 implements MigrationInterface {
  name = 'RequestIntake1763700000110';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      ALTER TABLE ${s}.requests
        ADD COLUMN request_type_inferred boolean NOT NULL DEFAULT false,
        ADD COLUMN clock_mode     text  NOT NULL DEFAULT 'receipt',
        ADD COLUMN policy_pack    text,
        ADD COLUMN policy_version text,
        ADD COLUMN due_at         timestamptz,
        ADD COLUMN intake_source  jsonb,
        ADD COLUMN requestor      jsonb,
        ADD COLUMN authority      jsonb,
        ADD COLUMN last_event_id  uuid`);
    // Rows recorded before this migration had no clock: give them the shortest period any pack has (30 days), never a later one.
    await q.query(`
      UPDATE ${s}.requests SET
        policy_pack = 'legacy', policy_version = '0.0.0', due_at = intake_received_at + interval '30 days',
        intake_source = jsonb_build_object('channel', channel, 'rawText', '', 'receivedAt', to_char(intake_received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      WHERE due_at IS NULL`);
    await q.query(`
      ALTER TABLE ${s}.requests
        ALTER COLUMN policy_pack SET NOT NULL, ALTER COLUMN policy_version SET NOT NULL,
        ALTER COLUMN due_at SET NOT NULL, ALTER COLUMN intake_source SET NOT NULL`);
    await q.query(`DROP INDEX ${s}.requests_tenant_received`);
    await q.query(`CREATE INDEX requests_queue_received ON ${s}.requests (tenant_id, received_at, id)`);
    await q.query(`CREATE INDEX requests_queue_due ON ${s}.requests (tenant_id, due_at, id)`);
    await q.query(`CREATE INDEX requests_queue_updated ON ${s}.requests (tenant_id, updated_at, id)`);
    await q.query(`CREATE INDEX requests_queue_status ON ${s}.requests (tenant_id, status, received_at, id)`);
    await q.query(`CREATE INDEX requests_queue_workspace ON ${s}.requests (tenant_id, workspace_id, received_at, id)`);
    await q.query(`
      CREATE INDEX requests_queue_open_due ON ${s}.requests (tenant_id, due_at, id)
      WHERE status IN ('received', 'in_progress', 'clarification_pending', 'verification_pending')`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    for (const i of ['received', 'due', 'updated', 'status', 'workspace', 'open_due']) await q.query(`DROP INDEX ${s}.requests_queue_${i}`);
    await q.query(`CREATE INDEX requests_tenant_received ON ${s}.requests (tenant_id, received_at)`);
    await q.query(`
      ALTER TABLE ${s}.requests
        DROP COLUMN request_type_inferred, DROP COLUMN clock_mode, DROP COLUMN policy_pack, DROP COLUMN policy_version,
        DROP COLUMN due_at, DROP COLUMN intake_source, DROP COLUMN requestor, DROP COLUMN authority, DROP COLUMN last_event_id`);
  }
}
