import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The time to close of the tenant's figures (RequestStats): the requests decided in the last days, found by the time
 * they entered their decided status, whatever their number of older decided ones. Without it, the figure read every
 * decided request of the tenant through `requests_queue_status` (docs/lifecycle.md#figures).
 */
export class RequestStats1763700000220 implements MigrationInterface {
  name = 'RequestStats1763700000220';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`CREATE INDEX requests_decided_changed ON ${s}.requests (tenant_id, status_changed_at) WHERE status IN ('fulfilled', 'refused', 'closed')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ${schemaOf(q)}.requests_decided_changed`);
  }
}
