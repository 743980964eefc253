import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';
import { canonicalJson } from '@dsar/platform/audit-chain';

const BATCH = 2000;

interface PayloadRow {
  tenant_id: string;
  request_id: string;
  sequence: string;
  payload: string;
}

/**
 * Chain entries keep their payload as the exact RFC 8785 text the entry's
 * hash covers (a `text` column), instead of `jsonb`, which re-orders keys and
 * re-spaces the JSON. Verifying then hashes the stored bytes as they are;
 * it no longer parses and re-canonicalizes every payload (docs/audit.md,
 * ADR 0018). A check keeps the column to one JSON object per entry.
 *
 * Existing rows are rewritten in place to the canonical text of the same
 * value, so their hashes still hold. That is the one change to chain rows a
 * migration makes: the append-only trigger is switched off for it, inside
 * this migration's transaction, and back on before it commits.
 */
export class AuditPayloadText1763700000220 implements MigrationInterface {
  name = 'AuditPayloadText1763700000220';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`ALTER TABLE ${s}.audit_entries ALTER COLUMN payload TYPE text USING payload::text`);
    await q.query(`ALTER TABLE ${s}.audit_entries DISABLE TRIGGER audit_entries_append_only`);
    for (const after = { tenant: '', request: '', sequence: '0' }; ;) {
      const rows = (await q.query(
        `SELECT tenant_id, request_id, sequence::text AS sequence, payload FROM ${s}.audit_entries
          WHERE (tenant_id, request_id, sequence) > ($1, $2, $3::bigint)
          ORDER BY tenant_id, request_id, sequence LIMIT $4`,
        [after.tenant, after.request, after.sequence, BATCH],
      )) as PayloadRow[];
      const changed = rows.map((r) => ({ ...r, canonical: canonicalJson(JSON.parse(r.payload)) })).filter((r) => r.canonical !== r.payload);
      if (changed.length > 0) {
        await q.query(
          `UPDATE ${s}.audit_entries e SET payload = c.payload
             FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS c(tenant_id, request_id, sequence, payload)
            WHERE e.tenant_id = c.tenant_id AND e.request_id = c.request_id AND e.sequence = c.sequence`,
          [changed.map((r) => r.tenant_id), changed.map((r) => r.request_id), changed.map((r) => r.sequence), changed.map((r) => r.canonical)],
        );
      }
      if (rows.length < BATCH) break;
      const last = rows[rows.length - 1];
      Object.assign(after, { tenant: last.tenant_id, request: last.request_id, sequence: last.sequence });
    }
    await q.query(`ALTER TABLE ${s}.audit_entries ENABLE TRIGGER audit_entries_append_only`);
    await q.query(`ALTER TABLE ${s}.audit_entries ADD CONSTRAINT audit_entries_payload_object CHECK (jsonb_typeof(payload::jsonb) = 'object')`);
  }

  async down(): Promise<void> {
    throw new Error('The audit chain cannot be rolled back: see AuditChain1763700000210. Restore a backup instead.');
  }
}
