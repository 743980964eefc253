import type { QueryRunner } from 'typeorm';
import { domainEventCatalog } from '@dsar/contracts';
import { AuditStore } from './audit-store';
import { appendEvent, immediateTarget } from '../application/chain-append';

interface LegacyRow {
  event_id: string;
  event_type: string;
  source: string;
  tenant_id: string;
  request_id: string;
  occurred_at: Date;
  recorded_at: Date;
  payload: Record<string, unknown>;
}

const BATCH = 1000;

/** Turns the events of the ledger's first table into chains, in the order they were received. */
export async function backfillChains(q: QueryRunner, schema: string): Promise<void> {
  const store = new AuditStore(schema);
  const catalog = domainEventCatalog();
  const target = immediateTarget(q);
  for (let after = 0; ;) {
    const rows = (await q.query(
      `SELECT id::int AS row_id, event_id, event_type, source, tenant_id, request_id, occurred_at, recorded_at, payload
         FROM ${schema}.ledger_events WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, BATCH],
    )) as (LegacyRow & { row_id: number })[];
    for (const r of rows) {
      const event = { id: r.event_id, type: r.event_type, source: r.source, subject: r.request_id, tenantid: r.tenant_id, time: r.occurred_at.toISOString(), data: r.payload };
      await appendEvent(store, target, event, catalog.get(r.event_type)?.personalData, r.recorded_at);
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].row_id;
  }
}
