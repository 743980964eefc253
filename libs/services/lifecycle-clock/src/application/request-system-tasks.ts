import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '@dsar/platform/clock';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import type { TaskFact } from '../domain/task-projection';

/**
 * lifecycle-clock's copy of whether each task of a request is open, kept from the dsar.task.v1 events (the queue's
 * `waitingOnSystems` filter reads it). An event is applied once (the consumer's inbox) and only when it is not older
 * than the newest one applied to its task: a task's events come in order on its system's partition, and one
 * delivered late after a newer one changes nothing. Events of one transaction share a time; the later one wins,
 * as it came later. `required` comes with the requested event, the first of every task; a task first seen
 * through another event counts as required until its requested event says otherwise, so that the queue rather
 * shows a request as waiting than hides one that waits.
 */
@Injectable()
export class RequestSystemTasks {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Applies one event's fact in the caller's (the inbox's) transaction; answers whether it changed the copy. */
  async apply(tx: EntityManager, fact: TaskFact): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO ${qualifiedTable(this.uow.dataSource, 'request_system_tasks')} AS t
         (task_id, tenant_id, request_id, system_key, required, state, open, last_event_at, updated_at)
       VALUES ($1, $2, $3, $4, coalesce($5::boolean, true), $6, $7, $8, $9)
       ON CONFLICT (task_id) DO UPDATE
         SET required = coalesce($5::boolean, t.required), state = EXCLUDED.state, open = EXCLUDED.open,
             last_event_at = EXCLUDED.last_event_at, updated_at = EXCLUDED.updated_at
       WHERE t.last_event_at <= EXCLUDED.last_event_at
       RETURNING task_id`,
      [fact.taskId, fact.tenantId, fact.requestId, fact.systemKey, fact.required ?? null, fact.state, fact.open, fact.occurredAt, this.clock.now()],
    );
    return rows.length > 0;
  }
}
