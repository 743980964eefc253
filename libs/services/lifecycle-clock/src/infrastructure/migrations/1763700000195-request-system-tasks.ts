import type { MigrationInterface, QueryRunner } from 'typeorm';
import { schemaOf } from '@dsar/platform/persistence';

/**
 * What lifecycle-clock knows of the tasks a request sent its data systems (fulfilment-delivery owns them): one row
 * per task, kept from the dsar.task.v1 events, for the queue's `waitingOnSystems` filter. `open` says whether the
 * task still waits for an answer or a decision; `last_event_at` is the time of the newest event applied, so that an
 * older event delivered late changes nothing. The partial index holds only the open required tasks: the filter's
 * `EXISTS` probes it by request.
 */
export class RequestSystemTasks1763700000195 implements MigrationInterface {
  name = 'RequestSystemTasks1763700000195';

  async up(q: QueryRunner): Promise<void> {
    const s = schemaOf(q);
    await q.query(`
      CREATE TABLE ${s}.request_system_tasks (
        task_id       uuid PRIMARY KEY,
        tenant_id     text        NOT NULL,
        request_id    uuid        NOT NULL,
        system_key    text        NOT NULL,
        required      boolean     NOT NULL,
        state         text        NOT NULL,
        open          boolean     NOT NULL,
        last_event_at timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX request_system_tasks_waiting ON ${s}.request_system_tasks (request_id) WHERE open AND required`);
    await q.query(`CREATE INDEX request_system_tasks_request ON ${s}.request_system_tasks (tenant_id, request_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.request_system_tasks`);
  }
}
