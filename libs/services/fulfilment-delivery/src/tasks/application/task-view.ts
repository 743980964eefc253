import type { z } from 'zod';
import type { pendingTask, TaskView } from '@dsar/contracts';
import type { DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** A task as operators see it (GET /requests/{id}/tasks, the answer to every change); `artifactIds` are its files. */
export function taskViewOf(task: DataSystemTaskEntity, artifactIds: readonly string[] = []): TaskView {
  return {
    id: task.id,
    requestId: task.requestId,
    systemKey: task.systemKey,
    action: task.action,
    mode: task.mode,
    required: task.required,
    state: task.state,
    attempts: task.attempts,
    maxAttempts: task.maxAttempts,
    dependsOn: task.dependsOn,
    blockedBy: task.blockedBy,
    legalDueAt: task.legalDueAt.toISOString(),
    dueAt: task.dueAt.toISOString(),
    timeoutAt: task.timeoutAt.toISOString(),
    leaseExpiresAt: task.state === 'claimed' ? iso(task.leaseExpiresAt) : null,
    claimedBy: task.claimedBy,
    lastError: task.lastError ? { message: task.lastError.message, code: task.lastError.code, retryable: task.lastError.retryable, at: task.lastError.at } : null,
    answer: task.outcome,
    answeredAt: iso(task.answeredAt),
    answeredBy: task.answeredBy,
    stateReason: task.stateReason,
    artifactIds: [...artifactIds],
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
  };
}

/** A task as a pull job lists it: no identities, no token. */
export function pendingTaskOf(task: DataSystemTaskEntity): z.infer<typeof pendingTask> {
  return { taskId: task.id, requestId: task.requestId, action: task.action, dueAt: task.dueAt.toISOString(), attempt: task.attempts };
}
