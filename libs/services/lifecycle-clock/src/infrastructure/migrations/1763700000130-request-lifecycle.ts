import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/** The workflow: acknowledgement and status facts on the request, its transitions, appeals, and the deadline monitor's claims. */
export class RequestLifecycle1763700000130 implements MigrationInterface {
  name = 'RequestLifecycle1763700000130';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      ALTER TABLE ${s}.requests
        ADD COLUMN acknowledged_at        timestamptz,
        ADD COLUMN acknowledgement_due_at timestamptz,
        ADD COLUMN status_reason          text,
        ADD COLUMN status_changed_at      timestamptz,
        ADD COLUMN open_appeal_id         uuid`);
    await q.query(`UPDATE ${s}.requests SET status_changed_at = received_at`);
    await q.query(`ALTER TABLE ${s}.requests ALTER COLUMN status_changed_at SET NOT NULL`);
    await q.query(`
      ALTER TABLE ${s}.request_clock_events
        DROP CONSTRAINT request_clock_events_kind_check,
        ADD CONSTRAINT request_clock_events_kind_check CHECK (kind IN ('pause', 'resume', 'extension', 'reopen'))`);
    await q.query(`
      CREATE TABLE ${s}.request_transitions (
        id          uuid PRIMARY KEY,
        tenant_id   text        NOT NULL,
        request_id  uuid        NOT NULL REFERENCES ${s}.requests (id),
        action      text        NOT NULL,
        from_status text        NOT NULL,
        to_status   text        NOT NULL,
        actor       text        NOT NULL,
        occurred_at timestamptz NOT NULL,
        details     jsonb       NOT NULL,
        event_id    uuid        NOT NULL
      )`);
    await q.query(`CREATE INDEX request_transitions_request ON ${s}.request_transitions (request_id, occurred_at)`);
    await q.query(`
      CREATE TABLE ${s}.request_appeals (
        id              uuid PRIMARY KEY,
        tenant_id       text        NOT NULL,
        request_id      uuid        NOT NULL REFERENCES ${s}.requests (id),
        message         text        NOT NULL,
        grounds         text,
        status          text        NOT NULL CHECK (status IN ('appeal_submitted', 'appeal_decided')),
        appealed_status text        NOT NULL,
        submitted_by    text        NOT NULL,
        created_at      timestamptz NOT NULL,
        due_at          timestamptz NOT NULL,
        decision        text        CHECK (decision IN ('approve', 'deny', 'partial')),
        explanation     text,
        decided_by      text,
        decided_at      timestamptz,
        CHECK ((status = 'appeal_decided') = (decision IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX request_appeals_request ON ${s}.request_appeals (request_id, created_at)`);
    // At most one undecided appeal per request, whatever the application does.
    await q.query(`CREATE UNIQUE INDEX request_appeals_one_open ON ${s}.request_appeals (request_id) WHERE status = 'appeal_submitted'`);
    await q.query(`
      CREATE TABLE ${s}.request_deadline_alerts (
        request_id     uuid        NOT NULL REFERENCES ${s}.requests (id),
        deadline       text        NOT NULL CHECK (deadline IN ('response', 'acknowledgement')),
        threshold_days integer     NOT NULL CHECK (threshold_days >= 0),
        due_at         timestamptz NOT NULL,
        tenant_id      text        NOT NULL,
        claimed_at     timestamptz NOT NULL,
        event_id       uuid,
        PRIMARY KEY (request_id, deadline, threshold_days, due_at)
      )`);
    // The monitor scans open requests of every tenant by deadline.
    await q.query(`CREATE INDEX requests_open_due ON ${s}.requests (due_at) WHERE status IN ('received', 'in_progress', 'clarification_pending', 'verification_pending')`);
    await q.query(
      `CREATE INDEX requests_open_ack_due ON ${s}.requests (acknowledgement_due_at) WHERE acknowledged_at IS NULL AND acknowledgement_due_at IS NOT NULL AND status IN ('received', 'in_progress', 'clarification_pending', 'verification_pending')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`DROP INDEX ${s}.requests_open_ack_due`);
    await q.query(`DROP INDEX ${s}.requests_open_due`);
    await q.query(`DROP TABLE ${s}.request_deadline_alerts`);
    await q.query(`DROP TABLE ${s}.request_appeals`);
    await q.query(`DROP TABLE ${s}.request_transitions`);
    await q.query(`DELETE FROM ${s}.request_clock_events WHERE kind = 'reopen'`);
    await q.query(`
      ALTER TABLE ${s}.request_clock_events
        DROP CONSTRAINT request_clock_events_kind_check,
        ADD CONSTRAINT request_clock_events_kind_check CHECK (kind IN ('pause', 'resume', 'extension'))`);
    await q.query(`
      ALTER TABLE ${s}.requests
        DROP COLUMN acknowledged_at,
        DROP COLUMN acknowledgement_due_at,
        DROP COLUMN status_reason,
        DROP COLUMN status_changed_at,
        DROP COLUMN open_appeal_id`);
  }
}
