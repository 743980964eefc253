import { OPEN_TASK_STATES, TaskEventTypes, type TaskState } from '@dsar/contracts';

/** What one dsar.task.v1 event says about its task, as the queue's `waitingOnSystems` filter needs it. */
export interface TaskFact {
  taskId: string;
  tenantId: string;
  requestId: string;
  systemKey: string;
  /** Only the requested event says whether the system's answer is required. */
  required?: boolean;
  state: TaskState;
  open: boolean;
  occurredAt: Date;
}

/** The event types that move a task, and so the projection: every type of dsar.task.v1. */
export const PROJECTED_TASK_EVENTS: readonly string[] = Object.values(TaskEventTypes);

/** What keeps a request waiting on its systems: an open task, or one that failed and blocks the fulfilment until an operator settles it. */
const OPEN: ReadonlySet<string> = new Set([...OPEN_TASK_STATES, 'error']);

/**
 * The task's state after an event: the events that change it by their nature say so by their type (requested:
 * queued or waiting, both open; claimed; requeued: queued; blocked), the others carry the state they left the task
 * in (an answer: complete, not_found, skipped, error, action_required, or queued again for a retryable error with
 * attempts left; a stop: skipped, error, action_required, cancelled; an overdue reminder: the state it found).
 * Undefined for a type that is not a task event.
 */
export function taskFactOf(type: string, data: Record<string, unknown>): TaskFact | undefined {
  const state = stateAfter(type, data);
  if (!state) return undefined;
  return {
    taskId: String(data.taskId),
    tenantId: String(data.tenantId),
    requestId: String(data.requestId),
    systemKey: String(data.systemKey),
    ...(type === TaskEventTypes.requested && typeof data.required === 'boolean' ? { required: data.required } : {}),
    state,
    open: OPEN.has(state),
    occurredAt: new Date(String(data.occurredAt)),
  };
}

function stateAfter(type: string, data: Record<string, unknown>): TaskState | undefined {
  switch (type) {
    case TaskEventTypes.requested:
      // Queued, or waiting for the systems it comes after (should the event say so): open either way.
      return data.state === 'waiting' ? 'waiting' : 'queued';
    case TaskEventTypes.claimed:
      return 'claimed';
    case TaskEventTypes.requeued:
      return 'queued';
    case TaskEventTypes.blocked:
      return 'blocked';
    case TaskEventTypes.answered:
    case TaskEventTypes.stopped:
    case TaskEventTypes.overdue:
      return data.state as TaskState;
    default:
      return undefined;
  }
}
