import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';
import { backfillChains } from '../chain-backfill';

/**
 * The per-request hash chain (docs/audit.md). Chain rows, purge checkpoints
 * and signed checkpoints are append-only: a trigger rejects UPDATE, DELETE
 * and TRUNCATE, except DELETE of entries a purge checkpoint already covers
 * (the retention purge). The events the ledger held before become the start
 * of their requests' chains, in the order it received them.
 */
export class AuditChain1763700000210 implements MigrationInterface {
  name = 'AuditChain1763700000210';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.audit_entries (
        tenant_id   text        NOT NULL,
        request_id  text        NOT NULL,
        sequence    bigint      NOT NULL CHECK (sequence > 0),
        event_id    uuid        NOT NULL UNIQUE,
        event_type  text        NOT NULL,
        source      text        NOT NULL,
        actor       text        NOT NULL,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        payload     jsonb       NOT NULL,
        prev_hash   text        NOT NULL,
        hash        text        NOT NULL,
        PRIMARY KEY (tenant_id, request_id, sequence)
      )`);
    await q.query(`
      CREATE TABLE ${s}.audit_chain_heads (
        tenant_id             text   NOT NULL,
        request_id            text   NOT NULL,
        sequence              bigint NOT NULL,
        hash                  text   NOT NULL,
        checkpointed_sequence bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, request_id)
      )`);
    // The chains a signed checkpoint has yet to cover.
    await q.query(`CREATE INDEX audit_chain_heads_pending ON ${s}.audit_chain_heads (tenant_id, request_id) WHERE sequence > checkpointed_sequence`);
    await q.query(`
      CREATE TABLE ${s}.audit_purged_prefixes (
        tenant_id        text        NOT NULL,
        request_id       text        NOT NULL,
        through_sequence bigint      NOT NULL,
        hash             text        NOT NULL,
        purged_at        timestamptz NOT NULL,
        PRIMARY KEY (tenant_id, request_id, through_sequence)
      )`);
    await q.query(`
      CREATE TABLE ${s}.audit_request_salts (
        tenant_id  text        NOT NULL,
        request_id text        NOT NULL,
        salt       bytea       NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, request_id)
      )`);
    await q.query(`
      CREATE TABLE ${s}.audit_checkpoints (
        id            uuid        PRIMARY KEY,
        tenant_id     text        NOT NULL,
        number        int         NOT NULL,
        created_at    timestamptz NOT NULL,
        root          text        NOT NULL,
        previous_root text,
        leaf_count    int         NOT NULL,
        algorithm     text        NOT NULL,
        key_id        text        NOT NULL,
        public_key    text        NOT NULL,
        signature     text        NOT NULL,
        UNIQUE (tenant_id, number)
      )`);
    await q.query(`
      CREATE TABLE ${s}.audit_checkpoint_leaves (
        checkpoint_id uuid   NOT NULL REFERENCES ${s}.audit_checkpoints (id),
        position      int    NOT NULL,
        request_id    text   NOT NULL,
        sequence      bigint NOT NULL,
        hash          text   NOT NULL,
        PRIMARY KEY (checkpoint_id, position)
      )`);
    await q.query(`CREATE INDEX audit_checkpoint_leaves_request ON ${s}.audit_checkpoint_leaves (request_id, sequence)`);
    // One row per tenant that has checkpoints: locked while its next checkpoint is made.
    await q.query(`
      CREATE TABLE ${s}.audit_checkpoint_tenants (
        tenant_id   text PRIMARY KEY,
        last_number int  NOT NULL DEFAULT 0,
        last_root   text
      )`);

    await q.query(`
      CREATE FUNCTION ${s}.audit_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '%.% is append-only: % is not allowed', TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP
          USING ERRCODE = 'integrity_constraint_violation', HINT = 'The audit chain is changed only by appending; see docs/audit.md.';
      END $$`);
    await q.query(`
      CREATE FUNCTION ${s}.audit_entries_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND EXISTS (
          SELECT 1 FROM ${s}.audit_purged_prefixes p
           WHERE p.tenant_id = OLD.tenant_id AND p.request_id = OLD.request_id AND p.through_sequence >= OLD.sequence
        ) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit chain entries are append-only: % of entry % of request % is not allowed', TG_OP, OLD.sequence, OLD.request_id
          USING ERRCODE = 'integrity_constraint_violation', HINT = 'Only the retention purge deletes entries, after recording a purge checkpoint; see docs/audit.md.';
      END $$`);
    await q.query(`CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON ${s}.audit_entries FOR EACH ROW EXECUTE FUNCTION ${s}.audit_entries_guard()`);
    for (const table of ['audit_entries', 'audit_purged_prefixes', 'audit_checkpoints', 'audit_checkpoint_leaves']) {
      if (table !== 'audit_entries') {
        await q.query(`CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.audit_reject_change()`);
      }
      await q.query(`CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${s}.${table} FOR EACH STATEMENT EXECUTE FUNCTION ${s}.audit_reject_change()`);
    }

    await backfillChains(q, s);
    await q.query(`DROP TABLE ${s}.ledger_events`);
  }

  async down(): Promise<void> {
    throw new Error('The audit chain cannot be rolled back: its entries would lose their hashes. Restore a backup instead.');
  }
}
