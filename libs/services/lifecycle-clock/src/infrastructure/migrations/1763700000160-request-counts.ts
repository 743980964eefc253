import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** Counter rows per tenant, workspace and status: a request's counts land on one of this many rows, by its id. */
export const REQUEST_COUNT_SLOTS = 16;

/** The counter row (0 … REQUEST_COUNT_SLOTS − 1) of the request whose id is `id`: concurrent creates of one tenant spread over the slots. */
const slotOf = (id: string): string => `(hashtext(${id}::text) & ${REQUEST_COUNT_SLOTS - 1})::smallint`;

/** What a `requests` row counts under: its tenant, its workspace ('' for none) and its status. */
const keyOf = (row: string): string => `${row}.tenant_id, coalesce(${row}.workspace_id, ''), ${row}.status, ${slotOf(`${row}.id`)}`;

/**
 * The queue's `total` without counting rows: `request_counts` holds how many
 * requests each tenant has per workspace and status, kept exact in the same
 * transaction as every write of `requests` by statement-level triggers (so a
 * bulk INSERT … SELECT or a retention DELETE costs one aggregated upsert, not
 * one per row). Each statement adds its rows' changes per key, in the key's
 * order, so concurrent writers lock counter rows in one order and cannot
 * deadlock on them. `slot` spreads one tenant's creates over 16 rows; only
 * the sum over the slots means anything. The counters start from the rows
 * already there (`request_counts_rebuild()`, also the operators' repair:
 * docs/operations.md). ADR 0029.
 */
export class RequestCounts1763700000160 implements MigrationInterface {
  name = 'RequestCounts1763700000160';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.request_counts (
        tenant_id    text     NOT NULL,
        workspace_id text     NOT NULL,
        status       text     NOT NULL,
        slot         smallint NOT NULL,
        n            bigint   NOT NULL,
        PRIMARY KEY (tenant_id, workspace_id, status, slot)
      )`);
    // Adds each key's change to its counter row, creating the row on first use; rows are taken in key order.
    const upsert = (changes: string) => `
        INSERT INTO ${s}.request_counts AS c (tenant_id, workspace_id, status, slot, n)
        ${changes}
        ON CONFLICT (tenant_id, workspace_id, status, slot) DO UPDATE SET n = c.n + excluded.n;`;
    await q.query(`
      CREATE FUNCTION ${s}.request_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN${upsert(`SELECT ${keyOf('r')}, count(*) FROM new_rows r GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`)}
        ELSIF TG_OP = 'DELETE' THEN${upsert(`SELECT ${keyOf('r')}, -count(*) FROM old_rows r GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`)}
        ELSIF TG_OP = 'UPDATE' THEN
          -- Each new row counts +1 and each old row -1 under its key: a row whose tenant, workspace, status (and id)
          -- stayed the same cancels out, so most updates change no counter at all.${upsert(`SELECT tenant_id, workspace_id, status, slot, sum(d)
          FROM (SELECT ${keyOf('r')}, 1 AS d FROM new_rows r UNION ALL SELECT ${keyOf('r')}, -1 FROM old_rows r) AS changes (tenant_id, workspace_id, status, slot, d)
         GROUP BY 1, 2, 3, 4 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4`)}
        ELSE
          DELETE FROM ${s}.request_counts;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER request_counts_insert AFTER INSERT ON ${s}.requests REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.request_counts_apply()`);
    await q.query(
      `CREATE TRIGGER request_counts_update AFTER UPDATE ON ${s}.requests REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.request_counts_apply()`,
    );
    await q.query(`CREATE TRIGGER request_counts_delete AFTER DELETE ON ${s}.requests REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.request_counts_apply()`);
    await q.query(`CREATE TRIGGER request_counts_truncate AFTER TRUNCATE ON ${s}.requests FOR EACH STATEMENT EXECUTE FUNCTION ${s}.request_counts_apply()`);
    // Counts every request again, with writes of requests held off until the caller's transaction ends (reads go on).
    await q.query(`
      CREATE FUNCTION ${s}.request_counts_rebuild() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        counted bigint;
      BEGIN
        LOCK TABLE ${s}.requests IN SHARE MODE;
        DELETE FROM ${s}.request_counts;
        INSERT INTO ${s}.request_counts (tenant_id, workspace_id, status, slot, n)
        SELECT ${keyOf('r')}, count(*) FROM ${s}.requests r GROUP BY 1, 2, 3, 4;
        SELECT coalesce(sum(n), 0) INTO counted FROM ${s}.request_counts;
        RETURN counted;
      END $$`);
    // The triggers exist before the backfill: a write that waited for this transaction's locks is counted by them.
    await q.query(`SELECT ${s}.request_counts_rebuild()`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    for (const t of ['insert', 'update', 'delete', 'truncate']) await q.query(`DROP TRIGGER request_counts_${t} ON ${s}.requests`);
    await q.query(`DROP FUNCTION ${s}.request_counts_rebuild()`);
    await q.query(`DROP FUNCTION ${s}.request_counts_apply()`);
    await q.query(`DROP TABLE ${s}.request_counts`);
  }
}
