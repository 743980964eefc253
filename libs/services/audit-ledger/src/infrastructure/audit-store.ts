import type { AuditCheckpoint, AuditCheckpointLeaf, AuditPurgedPrefix } from '@dsar/contracts';
import type { StoredEntry } from '@dsar/platform/audit-chain';
import type { SqlWrite } from '@dsar/platform/persistence';
import { AuditTables } from './audit-tables';

/** Anything that runs SQL: a transaction's EntityManager, a DataSource, a migration's QueryRunner. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export interface ChainHead {
  sequence: number;
  hash: string;
}

/** Times come back as the exact text the hash covered (UTC, milliseconds). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ENTRY_COLUMNS = `tenant_id AS "tenantId", request_id AS "requestId", sequence::int AS sequence, event_id AS "eventId",
  event_type AS "eventType", source, actor, ${iso('occurred_at')} AS "occurredAt", ${iso('recorded_at')} AS "recordedAt",
  payload AS "payloadJson", prev_hash AS "prevHash", hash`;

const CHECKPOINT_COLUMNS = `id AS "checkpointId", tenant_id AS "tenantId", number, ${iso('created_at')} AS "createdAt", root,
  previous_root AS "previousRoot", leaf_count AS "leafCount", algorithm, key_id AS "keyId", public_key AS "publicKey", signature`;

/**
 * Every SQL statement of the ledger, over its schema. Callers pass the runner
 * (the unit of work's transaction, or a migration's query runner), so the
 * same statements serve appends, reads, purges and the backfill.
 */
export class AuditStore {
  private readonly t: Record<keyof typeof AuditTables, string>;

  /** `schema`: the quoted schema name. */
  constructor(schema: string) {
    this.t = Object.fromEntries(Object.entries(AuditTables).map(([k, v]) => [k, `${schema}.${v}`])) as Record<keyof typeof AuditTables, string>;
  }

  /**
   * The chain's head, locked until the transaction ends (a new chain gets a
   * head at the genesis): appends to one request take turns, so its
   * sequence has no gaps and no forks.
   */
  async lockHead(run: SqlRunner, tenantId: string, requestId: string, genesis: string): Promise<ChainHead> {
    const rows = (await run.query(
      `INSERT INTO ${this.t.heads} (tenant_id, request_id, sequence, hash) VALUES ($1, $2, 0, $3)
       ON CONFLICT (tenant_id, request_id) DO UPDATE SET sequence = ${this.t.heads}.sequence
       RETURNING sequence::int AS sequence, hash`,
      [tenantId, requestId, genesis],
    )) as ChainHead[];
    return rows[0];
  }

  /**
   * `lockHead` for several chains in one statement, in the order of their keys (so that two transactions locking
   * overlapping sets wait for each other rather than deadlock); each chain once.
   */
  async lockHeads(run: SqlRunner, chains: readonly { tenantId: string; requestId: string }[], genesis: string): Promise<(ChainHead & { tenantId: string; requestId: string })[]> {
    return (await run.query(
      `INSERT INTO ${this.t.heads} (tenant_id, request_id, sequence, hash)
       SELECT k.tenant_id, k.request_id, 0, $3 FROM unnest($1::text[], $2::text[]) AS k(tenant_id, request_id) ORDER BY k.tenant_id, k.request_id
       ON CONFLICT (tenant_id, request_id) DO UPDATE SET sequence = ${this.t.heads}.sequence
       RETURNING tenant_id AS "tenantId", request_id AS "requestId", sequence::int AS sequence, hash`,
      [chains.map((c) => c.tenantId), chains.map((c) => c.requestId), genesis],
    )) as (ChainHead & { tenantId: string; requestId: string })[];
  }

  /** Which of the events the ledger holds already. */
  async heldEvents(run: SqlRunner, eventIds: readonly string[]): Promise<Set<string>> {
    const rows = (await run.query(`SELECT event_id FROM ${this.t.entries} WHERE event_id = ANY($1::uuid[])`, [eventIds])) as { event_id: string }[];
    return new Set(rows.map((r) => r.event_id));
  }

  /** The salts the requests have so far (a chain gets its salt with its first entry that needs it). */
  async saltsOf(run: SqlRunner, chains: readonly { tenantId: string; requestId: string }[]): Promise<{ tenantId: string; requestId: string; salt: Buffer }[]> {
    const rows = (await run.query(
      `SELECT s.tenant_id AS "tenantId", s.request_id AS "requestId", s.salt FROM ${this.t.salts} s
         JOIN unnest($1::text[], $2::text[]) AS k(tenant_id, request_id) ON s.tenant_id = k.tenant_id AND s.request_id = k.request_id`,
      [chains.map((c) => c.tenantId), chains.map((c) => c.requestId)],
    )) as { tenantId: string; requestId: string; salt: Buffer | Uint8Array }[];
    return rows.map((r) => ({ ...r, salt: Buffer.from(r.salt) }));
  }

  async hasEvent(run: SqlRunner, eventId: string): Promise<boolean> {
    const rows = (await run.query(`SELECT 1 FROM ${this.t.entries} WHERE event_id = $1`, [eventId])) as unknown[];
    return rows.length > 0;
  }

  /** The INSERT of an entry. */
  entryInsert(e: StoredEntry): SqlWrite {
    return {
      sql: `INSERT INTO ${this.t.entries}
         (tenant_id, request_id, sequence, event_id, event_type, source, actor, occurred_at, recorded_at, payload, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      params: [e.tenantId, e.requestId, e.sequence, e.eventId, e.eventType, e.source, e.actor, e.occurredAt, e.recordedAt, e.payloadJson, e.prevHash, e.hash],
    };
  }

  /** The UPDATE that moves a chain's head to its newest entry. */
  headUpdate(tenantId: string, requestId: string, head: ChainHead): SqlWrite {
    return { sql: `UPDATE ${this.t.heads} SET sequence = $3, hash = $4 WHERE tenant_id = $1 AND request_id = $2`, params: [tenantId, requestId, head.sequence, head.hash] };
  }

  /** The INSERT of a new chain's salt (one that holds no entry yet, so no salt either). */
  saltInsert(tenantId: string, requestId: string, salt: Buffer): SqlWrite {
    return { sql: `INSERT INTO ${this.t.salts} (tenant_id, request_id, salt) VALUES ($1, $2, $3)`, params: [tenantId, requestId, salt] };
  }

  /** The request's salt for personal data, created on first use. */
  async saltOf(run: SqlRunner, tenantId: string, requestId: string, fresh: () => Buffer): Promise<Buffer> {
    await run.query(`INSERT INTO ${this.t.salts} (tenant_id, request_id, salt) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [tenantId, requestId, fresh()]);
    const rows = (await run.query(`SELECT salt FROM ${this.t.salts} WHERE tenant_id = $1 AND request_id = $2`, [tenantId, requestId])) as { salt: Buffer | Uint8Array }[];
    return Buffer.from(rows[0].salt);
  }

  async head(run: SqlRunner, tenantId: string, requestId: string): Promise<ChainHead | undefined> {
    const rows = (await run.query(`SELECT sequence::int AS sequence, hash FROM ${this.t.heads} WHERE tenant_id = $1 AND request_id = $2 AND sequence > 0`, [tenantId, requestId])) as ChainHead[];
    return rows[0];
  }

  /** Entries after `afterSequence` up to `throughSequence`, in order, at most `limit`. */
  async entries(run: SqlRunner, tenantId: string, requestId: string, afterSequence: number, throughSequence: number, limit: number): Promise<StoredEntry[]> {
    return (await run.query(
      // ORDER BY names the table's column: the bare name would be the int cast in the select list, which no index serves.
      `SELECT ${ENTRY_COLUMNS} FROM ${this.t.entries} e
        WHERE tenant_id = $1 AND request_id = $2 AND sequence > $3 AND sequence <= $4
        ORDER BY e.sequence LIMIT $5`,
      [tenantId, requestId, afterSequence, throughSequence, limit],
    )) as StoredEntry[];
  }

  async hasEventOf(run: SqlRunner, tenantId: string, eventId: string): Promise<boolean> {
    const rows = (await run.query(`SELECT 1 FROM ${this.t.entries} WHERE tenant_id = $1 AND event_id = $2`, [tenantId, eventId])) as unknown[];
    return rows.length > 0;
  }

  /** The newest purge checkpoint of the chain, if retention purged its start. */
  async purgedPrefix(run: SqlRunner, tenantId: string, requestId: string): Promise<AuditPurgedPrefix | undefined> {
    const rows = (await run.query(
      `SELECT through_sequence::int AS "throughSequence", hash, ${iso('purged_at')} AS "purgedAt" FROM ${this.t.purgedPrefixes}
        WHERE tenant_id = $1 AND request_id = $2 ORDER BY through_sequence DESC LIMIT 1`,
      [tenantId, requestId],
    )) as AuditPurgedPrefix[];
    return rows[0];
  }

  /** Records the purge checkpoint, then deletes the entries it covers (the trigger allows exactly those). */
  async purgePrefix(run: SqlRunner, tenantId: string, requestId: string, prefix: AuditPurgedPrefix): Promise<number> {
    await run.query(`INSERT INTO ${this.t.purgedPrefixes} (tenant_id, request_id, through_sequence, hash, purged_at) VALUES ($1, $2, $3, $4, $5)`, [
      tenantId,
      requestId,
      prefix.throughSequence,
      prefix.hash,
      prefix.purgedAt,
    ]);
    // A SELECT around the DELETE: drivers answer a bare DELETE in different shapes.
    const rows = (await run.query(
      `WITH deleted AS (DELETE FROM ${this.t.entries} WHERE tenant_id = $1 AND request_id = $2 AND sequence <= $3 RETURNING 1)
       SELECT count(*)::int AS n FROM deleted`,
      [tenantId, requestId, prefix.throughSequence],
    )) as { n: number }[];
    return rows[0].n;
  }

  // --- signed checkpoints ---

  /**
   * Tenants with chains that grew since their last checkpoint. One probe of the pending index per tenant (a
   * skip scan): a DISTINCT would read every pending head, tens of thousands after an hour of traffic.
   */
  async tenantsWithPendingHeads(run: SqlRunner): Promise<string[]> {
    const rows = (await run.query(
      `WITH RECURSIVE pending AS (
         (SELECT tenant_id FROM ${this.t.heads} WHERE sequence > checkpointed_sequence ORDER BY tenant_id LIMIT 1)
         UNION ALL
         SELECT (SELECT h.tenant_id FROM ${this.t.heads} h WHERE h.sequence > h.checkpointed_sequence AND h.tenant_id > p.tenant_id ORDER BY h.tenant_id LIMIT 1)
           FROM pending p WHERE p.tenant_id IS NOT NULL)
       SELECT tenant_id AS "tenantId" FROM pending WHERE tenant_id IS NOT NULL`,
    )) as { tenantId: string }[];
    return rows.map((r) => r.tenantId);
  }

  /** The tenant's checkpoint state, locked: one checkpoint of a tenant is made at a time. */
  async lockCheckpointTenant(run: SqlRunner, tenantId: string): Promise<{ lastNumber: number; lastRoot: string | null }> {
    const rows = (await run.query(
      `INSERT INTO ${this.t.checkpointTenants} (tenant_id) VALUES ($1)
       ON CONFLICT (tenant_id) DO UPDATE SET last_number = ${this.t.checkpointTenants}.last_number
       RETURNING last_number AS "lastNumber", last_root AS "lastRoot"`,
      [tenantId],
    )) as { lastNumber: number; lastRoot: string | null }[];
    return rows[0];
  }

  /** Heads not yet covered, by request id (the Merkle order). */
  async pendingHeads(run: SqlRunner, tenantId: string, limit: number): Promise<AuditCheckpointLeaf[]> {
    return (await run.query(
      `SELECT request_id AS "requestId", sequence::int AS sequence, hash FROM ${this.t.heads}
        WHERE tenant_id = $1 AND sequence > checkpointed_sequence ORDER BY request_id LIMIT $2`,
      [tenantId, limit],
    )) as AuditCheckpointLeaf[];
  }

  async recordCheckpoint(run: SqlRunner, c: AuditCheckpoint, leaves: readonly AuditCheckpointLeaf[]): Promise<void> {
    await run.query(
      `INSERT INTO ${this.t.checkpoints} (id, tenant_id, number, created_at, root, previous_root, leaf_count, algorithm, key_id, public_key, signature)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [c.checkpointId, c.tenantId, c.number, c.createdAt, c.root, c.previousRoot, c.leafCount, c.algorithm, c.keyId, c.publicKey, c.signature],
    );
    await run.query(
      `INSERT INTO ${this.t.checkpointLeaves} (checkpoint_id, position, request_id, sequence, hash)
       SELECT $1, l.position::int, l.request_id, l.sequence, l.hash
         FROM unnest($2::text[], $3::bigint[], $4::text[]) WITH ORDINALITY AS l(request_id, sequence, hash, position)`,
      [c.checkpointId, leaves.map((l) => l.requestId), leaves.map((l) => l.sequence), leaves.map((l) => l.hash)],
    );
    // `= ANY` lets the planner find the heads by their key: a join alone with the unnest is planned as a hash join
    // over every head of the ledger, which grows with it.
    await run.query(
      `UPDATE ${this.t.heads} h SET checkpointed_sequence = GREATEST(h.checkpointed_sequence, l.sequence)
         FROM unnest($2::text[], $3::bigint[]) AS l(request_id, sequence)
        WHERE h.tenant_id = $1 AND h.request_id = ANY($2::text[]) AND h.request_id = l.request_id`,
      [c.tenantId, leaves.map((l) => l.requestId), leaves.map((l) => l.sequence)],
    );
    await run.query(`UPDATE ${this.t.checkpointTenants} SET last_number = $2, last_root = $3 WHERE tenant_id = $1`, [c.tenantId, c.number, c.root]);
  }

  async checkpoints(run: SqlRunner, tenantId: string, limit: number): Promise<AuditCheckpoint[]> {
    return (await run.query(`SELECT ${CHECKPOINT_COLUMNS} FROM ${this.t.checkpoints} WHERE tenant_id = $1 ORDER BY number DESC LIMIT $2`, [tenantId, limit])) as AuditCheckpoint[];
  }

  async checkpoint(run: SqlRunner, tenantId: string, checkpointId: string): Promise<AuditCheckpoint | undefined> {
    const rows = (await run.query(`SELECT ${CHECKPOINT_COLUMNS} FROM ${this.t.checkpoints} WHERE tenant_id = $1 AND id = $2`, [tenantId, checkpointId])) as AuditCheckpoint[];
    return rows[0];
  }

  async checkpointLeaves(run: SqlRunner, checkpointId: string): Promise<AuditCheckpointLeaf[]> {
    return (await run.query(`SELECT request_id AS "requestId", sequence::int AS sequence, hash FROM ${this.t.checkpointLeaves} WHERE checkpoint_id = $1 ORDER BY position`, [
      checkpointId,
    ])) as AuditCheckpointLeaf[];
  }
}
