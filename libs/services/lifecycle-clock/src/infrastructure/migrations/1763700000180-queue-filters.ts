import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The queue's filters by request type, jurisdiction and channel: one index each, by tenant and value, in the queue's
 * default order (receipt, then id). A page walks the requests of the chosen values alone, newest first, and the
 * total, which the request counters do not keep for these filters, counts up to 10,001 index entries
 * (docs/api/README.md#paging-the-queue). The receipt range is served by `requests_queue_received`, the reference by the
 * primary key.
 */
export class QueueFilters1763700000180 implements MigrationInterface {
  name = 'QueueFilters1763700000180';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`CREATE INDEX requests_queue_type ON ${s}.requests (tenant_id, request_type, received_at, id)`);
    await q.query(`CREATE INDEX requests_queue_jurisdiction ON ${s}.requests (tenant_id, jurisdiction, received_at, id)`);
    await q.query(`CREATE INDEX requests_queue_channel ON ${s}.requests (tenant_id, channel, received_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    for (const i of ['type', 'jurisdiction', 'channel']) await q.query(`DROP INDEX ${s}.requests_queue_${i}`);
  }
}
