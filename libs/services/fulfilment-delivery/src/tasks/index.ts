import { RequestTasksController } from './api/request-tasks.controller';
import { TasksController } from './api/tasks.controller';
import { TaskFilesController } from './api/task-files.controller';
import { TaskStatsController } from './api/task-stats.controller';
import { TaskEvents } from './application/task-events';
import { TaskFanout } from './application/task-fanout';
import { TaskFiles } from './application/task-files';
import { TaskStats } from './application/task-stats';
import { TaskWatchdog } from './application/task-watchdog';
import { Tasks } from './application/tasks';
import { WebhookSender } from './application/webhook-sender';
import { RequestPurgedHandler } from './events/request-purged.handler';
import { RequestTasksHandler } from './events/request-tasks.handler';
import { DataSystemFanoutEntity, DataSystemTaskEntity } from './infrastructure/data-system-task.entity';
import { DataSystemTasks1763700000450 } from './infrastructure/migrations/1763700000450-data-system-tasks';

export { type AnswerSource, dbNow, type PendingTask, type TaskLease, Tasks, workOf } from './application/tasks';
export { TASK_SYSTEM_ACTOR, TaskEvents, type TaskSystemFacts } from './application/task-events';
export { FANOUT_ACTOR, fanoutPrincipal, TaskFanout } from './application/task-fanout';
export { type TaskFileStored, TaskFiles } from './application/task-files';
export { type WatchdogRun, TaskWatchdog } from './application/task-watchdog';
export { WEBHOOK_EVENT_TYPE, WEBHOOK_WORKER, type WebhookRound, WebhookSender, webhookPrincipal } from './application/webhook-sender';
export { pendingTaskOf, taskViewOf } from './application/task-view';
export { answerMisfit, identitiesFor, identitiesOf, isFailed, isFinished, isOpen, sameAnswer, startState, stateAfterAnswer, taskDueAt } from './domain/task-rules';
export { newTaskToken, tokenMatches, tokenSha256 } from './domain/task-token';
export { DataSystemFanoutEntity, DataSystemTaskEntity, type TaskError } from './infrastructure/data-system-task.entity';

/**
 * The tasks requests send their data systems (docs/data-systems.md#tasks): controllers, providers, entities and
 * migrations. The module provides DATA_SYSTEM_SETTINGS and DataSystems (data-systems), Outbox and LifecycleClient.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const TASK_CONTROLLERS: Function[] = [TasksController, RequestTasksController, RequestTasksHandler, RequestPurgedHandler, TaskFilesController, TaskStatsController];
export const TASK_PROVIDERS: unknown[] = [TaskEvents, Tasks, TaskFanout, TaskFiles, TaskStats, WebhookSender, TaskWatchdog];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const TASK_ENTITIES: Function[] = [DataSystemTaskEntity, DataSystemFanoutEntity];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const TASK_MIGRATIONS: Function[] = [DataSystemTasks1763700000450];
