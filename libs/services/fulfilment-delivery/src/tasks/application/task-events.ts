import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  type DataSystemView,
  type TaskAnsweredV1,
  type TaskBlockedV1,
  type TaskClaimedV1,
  TaskEventTypes,
  type TaskOverdueV1,
  type TaskRequestedV1,
  type TaskRequeuedV1,
  type TaskStoppedV1,
} from '@dsar/contracts';
import { Outbox } from '@dsar/platform/messaging';
import type { DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';

/** Who acts when the service moves a task by itself. */
export const TASK_SYSTEM_ACTOR = 'system';

/** What the requested event says of the task's system. */
export type TaskSystemFacts = Pick<DataSystemView, 'displayName' | 'owner'>;

/**
 * The dsar.task.* events of a task, recorded through the outbox in the transaction of the change they describe:
 * subject the request id (its timeline and audit chain), bus key `<tenantId>:<systemKey>` (one system's tasks in
 * order on one partition). No event carries the token or an identity's value.
 */
@Injectable()
export class TaskEvents {
  constructor(private readonly outbox: Outbox) {}

  facts(task: DataSystemTaskEntity, actor: string, at: Date) {
    return {
      requestId: task.requestId,
      tenantId: task.tenantId,
      workspaceId: task.workspaceId,
      taskId: task.id,
      systemKey: task.systemKey,
      action: task.action,
      actor,
      occurredAt: at.toISOString(),
    };
  }

  async record(tx: EntityManager, task: DataSystemTaskEntity, type: string, data: Record<string, unknown>): Promise<void> {
    await this.outbox.record(tx, { type, subject: task.requestId, partitionKey: `${task.tenantId}:${task.systemKey}`, tenantId: task.tenantId, data });
  }

  /**
   * The task is queued for a claim (new, or started when the systems it comes after finished), or made waiting for
   * them (or for its paused system): the queue's `waitingOnSystems` counts it either way, connectors claim only a queued one.
   */
  requested(tx: EntityManager, task: DataSystemTaskEntity, system: TaskSystemFacts, actor: string, at: Date): Promise<void> {
    return this.record(tx, task, TaskEventTypes.requested, {
      ...this.facts(task, actor, at),
      state: task.state === 'waiting' ? 'waiting' : 'queued',
      mode: task.mode,
      requestType: task.requestType,
      required: task.required,
      attempt: task.attempts,
      legalDueAt: task.legalDueAt.toISOString(),
      dueAt: task.dueAt.toISOString(),
      identityTypes: [...new Set(task.identities.map((i) => i.type))],
      dataCategories: task.dataCategories,
      displayName: system.displayName,
      owner: ownerOf(system),
    } satisfies TaskRequestedV1);
  }

  /** A claim by `actor` (the principal: a connector's key, the service's webhook sender) for its `worker`. */
  claimed(tx: EntityManager, task: DataSystemTaskEntity, worker: string, actor: string, at: Date): Promise<void> {
    return this.record(tx, task, TaskEventTypes.claimed, {
      ...this.facts(task, actor, at),
      worker,
      attempt: task.attempts,
      leaseExpiresAt: (task.leaseExpiresAt as Date).toISOString(),
    } satisfies TaskClaimedV1);
  }

  requeued(tx: EntityManager, task: DataSystemTaskEntity, reason: TaskRequeuedV1['reason'], actor: string, at: Date): Promise<void> {
    return this.record(tx, task, TaskEventTypes.requeued, {
      ...this.facts(task, actor, at),
      mode: task.mode,
      reason,
      attempt: task.attempts,
      dueAt: task.dueAt.toISOString(),
    } satisfies TaskRequeuedV1);
  }

  /** The answer that settled the task (or an operator's settling by hand), in the state it left the task in. */
  answered(tx: EntityManager, task: DataSystemTaskEntity, actor: string, at: Date, how: { byOperator: boolean; fileCount: number }): Promise<void> {
    const answer = task.outcome;
    if (!answer) throw new Error(`task ${task.id} has no answer to record`);
    const erasure = answer.outcome === 'complete' ? answer.erasure : undefined;
    return this.record(tx, task, TaskEventTypes.answered, {
      ...this.facts(task, actor, at),
      outcome: answer.outcome,
      state: task.state,
      ...(answer.outcome === 'error' ? { retryable: answer.retryable && task.state === 'queued' } : {}),
      byOperator: how.byOperator,
      ...(erasure
        ? {
            erasure: {
              result: erasure.result,
              recordsAffected: erasure.recordsAffected,
              categoriesErased: erasure.categoriesErased,
              method: erasure.method,
              performedBy: erasure.performedBy,
              performedAt: erasure.performedAt,
              hasExceptionReason: erasure.exceptionReason !== undefined,
            },
          }
        : {}),
      fileCount: how.fileCount,
      hasNote: (answer.outcome === 'complete' || answer.outcome === 'not_found') && answer.note !== undefined,
    } satisfies TaskAnsweredV1);
  }

  blocked(tx: EntityManager, task: DataSystemTaskEntity, blockedBy: string, actor: string, at: Date): Promise<void> {
    return this.record(tx, task, TaskEventTypes.blocked, { ...this.facts(task, actor, at), blockedBy, reason: 'dependency_failed' } satisfies TaskBlockedV1);
  }

  /** The task passed its system's due date: `reminder` (its owner), then `escalation` (operators). */
  overdue(tx: EntityManager, task: DataSystemTaskEntity, stage: TaskOverdueV1['stage'], system: TaskSystemFacts, actor: string, at: Date): Promise<void> {
    return this.record(tx, task, TaskEventTypes.overdue, {
      ...this.facts(task, actor, at),
      stage,
      dueAt: task.dueAt.toISOString(),
      timeoutAt: task.timeoutAt.toISOString(),
      state: task.state,
      displayName: system.displayName,
      owner: ownerOf(system),
    } satisfies TaskOverdueV1);
  }

  /** The service settled the task without an answer (timed out, system deleted, request closed, attempts exhausted, no identity). */
  stopped(tx: EntityManager, task: DataSystemTaskEntity, reason: TaskStoppedV1['reason'], actor: string, at: Date): Promise<void> {
    return this.record(tx, task, TaskEventTypes.stopped, { ...this.facts(task, actor, at), state: task.state, reason } satisfies TaskStoppedV1);
  }
}

/** The owner's contacts as events carry them (absent ones left out). */
function ownerOf(system: TaskSystemFacts): { email?: string; slackChannel?: string } {
  return { ...(system.owner.email ? { email: system.owner.email } : {}), ...(system.owner.slackChannel ? { slackChannel: system.owner.slackChannel } : {}) };
}
