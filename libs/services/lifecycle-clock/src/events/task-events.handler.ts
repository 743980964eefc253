import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import type { CloudEventEnvelope } from '@dsar/contracts';
import { UnitOfWork } from '@dsar/platform/persistence';
import { RequestSystemTasks } from '../application/request-system-tasks';
import { PROJECTED_TASK_EVENTS, taskFactOf } from '../domain/task-projection';

/** fulfilment-delivery's task events (dsar.task.v1), each in the consumer's inbox transaction: the queue's `waitingOnSystems` filter. */
@Controller()
export class TaskEventsHandler {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly tasks: RequestSystemTasks,
  ) {}

  @EventPattern(PROJECTED_TASK_EVENTS)
  async onTaskEvent(@Payload() event: CloudEventEnvelope): Promise<void> {
    const fact = taskFactOf(event.type, event.data as Record<string, unknown>);
    if (fact) await this.tasks.apply(this.uow.manager, fact);
  }
}
