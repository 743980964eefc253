import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** Fulfilment manifests, their change history, artifacts and artifact versions. */
export class Fulfilment1763700000400 implements MigrationInterface {
  name = 'Fulfilment1763700000400';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.fulfilment_manifests (
        request_id                uuid PRIMARY KEY,
        tenant_id                 text        NOT NULL,
        workspace_id              text,
        request_type              text        NOT NULL,
        version                   integer     NOT NULL CHECK (version >= 0),
        validation_state          text CHECK (validation_state IN ('pending', 'approved', 'rejected')),
        data_categories           jsonb,
        redactions_applied        jsonb       NOT NULL,
        third_party_exclusions    jsonb       NOT NULL,
        supplementary_info_inline text,
        supplementary_info_ref    text,
        changed_by                text,
        changed_at                timestamptz,
        review                    jsonb,
        fulfilment_claimed_until  timestamptz,
        pending_fulfilment        jsonb,
        fulfilments               integer     NOT NULL CHECK (fulfilments >= 0),
        fulfilled_at              timestamptz,
        fulfilled_by              text,
        fulfilled_version         integer,
        created_at                timestamptz NOT NULL,
        updated_at                timestamptz NOT NULL,
        CHECK ((version = 0) = (validation_state IS NULL))
      )`);
    await q.query(`
      CREATE TABLE ${s}.fulfilment_manifest_changes (
        seq              bigserial PRIMARY KEY,
        request_id       uuid        NOT NULL REFERENCES ${s}.fulfilment_manifests (request_id),
        tenant_id        text        NOT NULL,
        version          integer     NOT NULL CHECK (version > 0),
        change           text        NOT NULL CHECK (change IN ('artifact_uploaded', 'artifact_replaced', 'manifest_recorded', 'approved', 'rejected')),
        changed_by       text        NOT NULL,
        changed_at       timestamptz NOT NULL,
        validation_state text        NOT NULL CHECK (validation_state IN ('pending', 'approved', 'rejected'))
      )`);
    await q.query(`CREATE INDEX fulfilment_manifest_changes_request ON ${s}.fulfilment_manifest_changes (request_id, seq)`);
    await q.query(`
      CREATE TABLE ${s}.fulfilment_artifacts (
        id              uuid PRIMARY KEY,
        tenant_id       text        NOT NULL,
        request_id      uuid        NOT NULL REFERENCES ${s}.fulfilment_manifests (request_id),
        title           text        NOT NULL,
        type            text        NOT NULL CHECK (type IN ('profile_data', 'account_data', 'support_tickets', 'audit_logs', 'other')),
        data_categories jsonb       NOT NULL,
        current_version integer     NOT NULL CHECK (current_version > 0),
        created_at      timestamptz NOT NULL,
        created_by      text        NOT NULL,
        updated_at      timestamptz NOT NULL,
        updated_by      text        NOT NULL,
        purged_at       timestamptz
      )`);
    await q.query(`CREATE INDEX fulfilment_artifacts_request ON ${s}.fulfilment_artifacts (request_id, created_at)`);
    await q.query(`
      CREATE TABLE ${s}.fulfilment_artifact_versions (
        artifact_key text PRIMARY KEY,
        artifact_id  uuid        NOT NULL REFERENCES ${s}.fulfilment_artifacts (id),
        tenant_id    text        NOT NULL,
        request_id   uuid        NOT NULL,
        version      integer     NOT NULL CHECK (version > 0),
        filename     text        NOT NULL,
        content_type text        NOT NULL,
        size         bigint      NOT NULL CHECK (size > 0),
        sha256       text        NOT NULL,
        storage_key  text        NOT NULL,
        created_at   timestamptz NOT NULL,
        created_by   text        NOT NULL,
        replaced_at  timestamptz,
        purged_at    timestamptz,
        UNIQUE (artifact_id, version)
      )`);
    await q.query(`CREATE INDEX fulfilment_artifact_versions_request ON ${s}.fulfilment_artifact_versions (request_id) WHERE purged_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP TABLE ${s}.fulfilment_artifact_versions`);
    await q.query(`DROP TABLE ${s}.fulfilment_artifacts`);
    await q.query(`DROP TABLE ${s}.fulfilment_manifest_changes`);
    await q.query(`DROP TABLE ${s}.fulfilment_manifests`);
  }
}
