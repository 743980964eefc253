import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The at-risk queue in its default order (open requests due within N days, newest receipt first): an index of the
 * open requests by receipt that carries `due_at`, so the page walks it backwards and tests the due date in the index
 * alone. With `requests_queue_received` every open and closed request newer than the first at-risk one was read from
 * the table to be filtered out (docs/performance.md, the queue benchmark).
 */
export class QueueOpenReceived1763700000170 implements MigrationInterface {
  name = 'QueueOpenReceived1763700000170';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE INDEX requests_queue_open_received ON ${s}.requests (tenant_id, received_at, id) INCLUDE (due_at)
      WHERE status IN ('received', 'in_progress', 'clarification_pending', 'verification_pending')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ${schemaOf(q)}.requests_queue_open_received`);
  }
}
