import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * The tasks a request sends its data systems (one per system and action: the unique key makes a second fan-out of
 * the same transition insert nothing), and the fan-outs lifecycle events ask for, done outside the event's
 * transaction because they read the request from lifecycle-clock.
 */
export class DataSystemTasks1763700000450 implements MigrationInterface {
  name = 'DataSystemTasks1763700000450';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.data_system_task (
        id                uuid PRIMARY KEY,
        tenant_id         text        NOT NULL,
        workspace_id      text,
        request_id        uuid        NOT NULL,
        request_type      text        NOT NULL,
        system_key        text        NOT NULL,
        system_version    integer     NOT NULL,
        action            text        NOT NULL,
        mode              text        NOT NULL,
        required          boolean     NOT NULL,
        state             text        NOT NULL CHECK (state IN ('waiting', 'queued', 'claimed', 'complete', 'not_found', 'skipped', 'error', 'action_required', 'blocked', 'cancelled')),
        state_reason      text,
        attempts          integer     NOT NULL CHECK (attempts >= 0),
        max_attempts      integer     NOT NULL CHECK (max_attempts >= 1),
        depends_on        jsonb       NOT NULL,
        blocked_by        uuid,
        legal_due_at      timestamptz NOT NULL,
        due_at            timestamptz NOT NULL,
        timeout_at        timestamptz NOT NULL,
        next_attempt_at   timestamptz,
        lease_expires_at  timestamptz,
        claimed_by        text,
        token_sha256      text,
        token_expires_at  timestamptz,
        identities        jsonb       NOT NULL,
        data_categories   jsonb       NOT NULL,
        outcome           jsonb,
        last_error        jsonb,
        reminded_at       timestamptz,
        escalated_at      timestamptz,
        answered_at       timestamptz,
        answered_by       text,
        created_at        timestamptz NOT NULL,
        updated_at        timestamptz NOT NULL,
        UNIQUE (request_id, system_key, action)
      )`);
    // A system's pending list and the watchdog's sweeps read open tasks by tenant, system and state.
    await q.query(`CREATE INDEX data_system_task_pending_idx ON ${s}.data_system_task (tenant_id, system_key, state, created_at)`);
    await q.query(`CREATE INDEX data_system_task_open_idx ON ${s}.data_system_task (state, due_at) WHERE state IN ('waiting', 'queued', 'claimed', 'action_required', 'blocked')`);
    await q.query(`
      CREATE TABLE ${s}.data_system_fanout (
        request_id     uuid PRIMARY KEY,
        tenant_id      text        NOT NULL,
        workspace_id   text,
        state          text        NOT NULL CHECK (state IN ('pending', 'done', 'cancelled')),
        asked_at       timestamptz NOT NULL,
        claimed_until  timestamptz,
        tries          integer     NOT NULL DEFAULT 0,
        last_error     text,
        updated_at     timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX data_system_fanout_pending_idx ON ${s}.data_system_fanout (asked_at) WHERE state = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP TABLE ${s}.data_system_fanout`);
    await q.query(`DROP TABLE ${s}.data_system_task`);
  }
}
