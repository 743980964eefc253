import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** Verification cases, evidence, evidence files and the sweep's reminder claims. */
export class Verification1763700000300 implements MigrationInterface {
  name = 'Verification1763700000300';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.verification_cases (
        id                   uuid PRIMARY KEY,
        tenant_id            text        NOT NULL,
        workspace_id         text,
        request_id           uuid        NOT NULL,
        seq                  integer     NOT NULL,
        status               text        NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'cancelled')),
        level                text        NOT NULL CHECK (level IN ('reasonable', 'enhanced')),
        method               text        NOT NULL,
        methods_allowed      jsonb       NOT NULL,
        pause_clock          boolean     NOT NULL,
        reason_for_doubt     text,
        requested_at         timestamptz NOT NULL,
        requested_by         text        NOT NULL,
        reminder_days        jsonb       NOT NULL,
        expires_at           timestamptz,
        expiry_claimed_until timestamptz,
        pending_decision     jsonb,
        decided_at           timestamptz,
        decided_by           text,
        decision_method      text,
        decision_reason      text,
        decision_note        text,
        UNIQUE (request_id, seq),
        CHECK ((status = 'pending') = (decided_at IS NULL))
      )`);
    // At most one pending case per request, whatever the application does.
    await q.query(`CREATE UNIQUE INDEX verification_cases_one_pending ON ${s}.verification_cases (request_id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX verification_cases_pending ON ${s}.verification_cases (requested_at, id) WHERE status = 'pending'`);
    await q.query(`
      CREATE TABLE ${s}.verification_evidence (
        id               uuid PRIMARY KEY,
        tenant_id        text        NOT NULL,
        request_id       uuid        NOT NULL,
        case_id          uuid REFERENCES ${s}.verification_cases (id),
        level            text        NOT NULL CHECK (level IN ('reasonable', 'enhanced')),
        status           text        NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
        methods_allowed  jsonb       NOT NULL,
        artifacts        jsonb       NOT NULL,
        reason_for_doubt text,
        created_at       timestamptz NOT NULL,
        created_by       text        NOT NULL
      )`);
    await q.query(`CREATE INDEX verification_evidence_request ON ${s}.verification_evidence (request_id, created_at)`);
    await q.query(`
      CREATE TABLE ${s}.verification_evidence_files (
        artifact_key text PRIMARY KEY,
        tenant_id    text        NOT NULL,
        request_id   uuid        NOT NULL,
        evidence_id  uuid        NOT NULL REFERENCES ${s}.verification_evidence (id),
        filename     text        NOT NULL,
        content_type text        NOT NULL,
        size         bigint      NOT NULL CHECK (size > 0),
        sha256       text        NOT NULL,
        storage_key  text        NOT NULL,
        uploaded_at  timestamptz NOT NULL,
        uploaded_by  text        NOT NULL,
        purged_at    timestamptz
      )`);
    await q.query(`CREATE INDEX verification_evidence_files_request ON ${s}.verification_evidence_files (request_id)`);
    await q.query(`CREATE INDEX verification_evidence_files_tenant_uploaded ON ${s}.verification_evidence_files (tenant_id, uploaded_at) WHERE purged_at IS NULL`);
    await q.query(`
      CREATE TABLE ${s}.verification_reminders (
        case_id    uuid        NOT NULL REFERENCES ${s}.verification_cases (id),
        day        integer     NOT NULL,
        tenant_id  text        NOT NULL,
        claimed_at timestamptz NOT NULL,
        event_id   uuid,
        PRIMARY KEY (case_id, day)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP TABLE ${s}.verification_reminders`);
    await q.query(`DROP TABLE ${s}.verification_evidence_files`);
    await q.query(`DROP TABLE ${s}.verification_evidence`);
    await q.query(`DROP TABLE ${s}.verification_cases`);
  }
}
