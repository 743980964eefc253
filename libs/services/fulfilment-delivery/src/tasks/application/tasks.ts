import { Inject, Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull } from 'typeorm';
import type { z } from 'zod';
import {
  type DataSystemView,
  isUuid,
  LEASE_SECONDS,
  type pendingTask,
  type Principal,
  type TaskAnswer,
  type taskClaimCommand,
  type TaskRequeuedV1,
  type TaskStoppedV1,
  type taskCompleteCommand,
  type taskHeartbeatCommand,
  type taskLease,
  type taskRetryCommand,
  type taskSkipCommand,
  type TaskState,
  type TaskView,
  type TaskWork,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import type { TenantScope } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { DataSystems } from '../../data-systems/application/data-systems';
import { DATA_SYSTEM_SETTINGS, type DataSystemSettings } from '../../data-systems/data-system-settings';
import { answerMisfit, isFailed, isFinished, type OperatorAction, operatorActionsIn, sameAnswer, startState, stateAfterAnswer, taskDueAt, toBlock, toStart, toUnblock } from '../domain/task-rules';
import { newTaskToken, tokenMatches, tokenSha256 } from '../domain/task-token';
import { ArtifactEntity } from '../../fulfilment/infrastructure/artifact.entity';
import { DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';
import { TASK_SYSTEM_ACTOR, TaskEvents } from './task-events';
import { pendingTaskOf, taskViewOf } from './task-view';

type ClaimCommand = z.infer<typeof taskClaimCommand>;
type HeartbeatCommand = z.infer<typeof taskHeartbeatCommand>;
type RetryCommand = z.infer<typeof taskRetryCommand>;
type SkipCommand = z.infer<typeof taskSkipCommand>;
type CompleteCommand = z.infer<typeof taskCompleteCommand>;
export type TaskLease = z.infer<typeof taskLease>;
export type PendingTask = z.infer<typeof pendingTask>;

/** The states the fulfilment gate lets through: an answer (or an operator's settling), or a cancellation. */
const GATE_SETTLED: readonly TaskState[] = ['complete', 'not_found', 'skipped', 'cancelled'];
const DEFAULT_PENDING_LIMIT = 20;
const HOUR_MS = 3_600_000;

/** How an answer came: from the system with its token, or from an operator by hand. */
export interface AnswerSource {
  /** The principal (or worker) that answered. */
  by: string;
  byOperator: boolean;
  /** The files the task's answer has; counted from the manifest's artifacts of the task when not given. */
  fileCount?: number;
}

/**
 * The tasks of requests for their data systems (docs/data-systems.md#tasks): the pending list a pull job polls,
 * claims under a lease with a new token each, heartbeats, answers checked by token, the operator's retry, skip and
 * complete, and what a settled task does to the tasks that come after it. Every change of a request's tasks first
 * locks all of them (in id order, so two changes never deadlock), and writes its dsar.task.* event in the same
 * transaction. Leases and tokens run on the database's clock (a mechanism, ADR 0019); due dates on the service's.
 */
@Injectable()
export class Tasks {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly events: TaskEvents,
    private readonly systems: DataSystems,
    @Inject(DATA_SYSTEM_SETTINGS) private readonly settings: DataSystemSettings,
  ) {}

  /** The caller's transaction when there is one (an event handler's), else the data source. */
  get db(): EntityManager {
    return this.uow.manager;
  }

  /** A system's tasks waiting for a claim (queued and due, or claimed under a lapsed lease), oldest first. */
  async pending(tenantId: string, systemKey: string, limit = DEFAULT_PENDING_LIMIT): Promise<{ items: PendingTask[] }> {
    await this.systems.view(tenantId, systemKey);
    const rows = await this.db
      .getRepository(DataSystemTaskEntity)
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenantId AND t.system_key = :systemKey', { tenantId, systemKey })
      .andWhere(`((t.state = 'queued' AND (t.next_attempt_at IS NULL OR t.next_attempt_at <= now())) OR (t.state = 'claimed' AND t.lease_expires_at <= now()))`)
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .limit(limit)
      .getMany();
    return { items: rows.map(pendingTaskOf) };
  }

  /**
   * Claims a task: queued and due, or claimed under a lapsed lease. A new token each time (the previous one stops
   * working), the lease capped at TASK_LEASE_MAX_SECONDS, one attempt more; a task whose attempts are spent fails
   * (`error`, `attempts_exhausted`, its dependants blocked) and the claim is refused.
   */
  async claim(principal: Principal, taskId: string, command: ClaimCommand): Promise<TaskWork> {
    const leaseSeconds = this.leaseSeconds(command.leaseSeconds);
    const token = newTaskToken();
    const result = await this.uow.run(async (tx) => {
      const { task } = await this.lockTask(tx, principal.tenantId, taskId);
      const now = await dbNow(tx);
      const lapsed = task.state === 'claimed' && task.leaseExpiresAt !== null && task.leaseExpiresAt <= now;
      const due = task.state === 'queued' && (task.nextAttemptAt === null || task.nextAttemptAt <= now);
      if (!due && !lapsed) return { refused: notClaimable(task) };
      if (task.attempts >= task.maxAttempts) {
        await this.exhaust(tx, task);
        return { refused: notClaimable(task, 'its attempts are spent') };
      }
      task.state = 'claimed';
      task.attempts += 1;
      task.claimedBy = command.worker;
      task.leaseExpiresAt = new Date(now.getTime() + leaseSeconds * 1000);
      task.tokenSha256 = tokenSha256(token);
      // The token lives as long as the task may be worked on: until it times out, and at least this lease.
      task.tokenExpiresAt = new Date(Math.max(task.timeoutAt.getTime(), now.getTime()) + leaseSeconds * 1000);
      task.nextAttemptAt = null;
      task.updatedAt = this.clock.now();
      await tx.save(task);
      await this.events.claimed(tx, task, command.worker, principal.id, task.updatedAt);
      return { task };
    });
    if ('refused' in result) throw result.refused;
    return workOf(result.task, token);
  }

  /** Extends the lease of the claim the token belongs to; a task no longer claimed (its lease lapsed and it was requeued, or it was answered) is a 409. */
  async heartbeat(principal: Principal, taskId: string, token: string | undefined, command: HeartbeatCommand): Promise<TaskLease> {
    const leaseSeconds = this.leaseSeconds(command.leaseSeconds);
    return this.uow.run(async (tx) => {
      const task = await this.checkToken(principal.tenantId, taskId, token, tx);
      if (task.state !== 'claimed') throw notClaimable(task, 'it is no longer claimed: claim it again');
      const now = await dbNow(tx);
      task.leaseExpiresAt = new Date(now.getTime() + leaseSeconds * 1000);
      task.updatedAt = this.clock.now();
      await tx.save(task);
      return { taskId: task.id, leaseExpiresAt: task.leaseExpiresAt.toISOString() };
    });
  }

  /**
   * The tenant's task, checked against the token of its current claim (constant-time): 404 TASK_NOT_FOUND for an
   * unknown task or another tenant's, 403 TASK_TOKEN_INVALID for a missing, wrong or superseded token, 403
   * TASK_TOKEN_EXPIRED past its expiry. Within `tx` the request's tasks are locked first, so the task can be changed.
   */
  async checkToken(tenantId: string, taskId: string, token: string | undefined, tx?: EntityManager): Promise<DataSystemTaskEntity> {
    const task = tx ? (await this.lockTask(tx, tenantId, taskId)).task : await this.find(this.db, tenantId, taskId);
    if (!tokenMatches(token, task.tokenSha256)) {
      throw new ProblemError('TASK_TOKEN_INVALID', "The x-task-token header is not the token of this task's current claim (missing, mistyped, another task's, or superseded by a newer claim).");
    }
    if (task.tokenExpiresAt === null || task.tokenExpiresAt <= (await dbNow(tx ?? this.db))) {
      throw new ProblemError('TASK_TOKEN_EXPIRED', 'The task token has expired with its task; an operator can retry the task.');
    }
    return task;
  }

  /**
   * A system's answer with its token. The same answer again answers the same view; a different one to a settled task
   * is a 409 TASK_ALREADY_ANSWERED. A retryable error queues the task again while attempts are left.
   */
  async answer(principal: Principal, taskId: string, token: string | undefined, answer: TaskAnswer): Promise<TaskView> {
    return this.uow.run(async (tx) => {
      const task = await this.checkToken(principal.tenantId, taskId, token, tx);
      if (task.outcome !== null) {
        if (sameAnswer(task.outcome, answer)) return this.view(tx, task);
        throw new ProblemError('TASK_ALREADY_ANSWERED', `The task was answered ${task.outcome.outcome} already.`, undefined, { state: task.state });
      }
      if (task.state === 'queued' && answer.outcome === 'error' && task.lastError && sameError(task.lastError, answer)) return this.view(tx, task);
      if (task.state !== 'claimed' && task.state !== 'queued') {
        throw new ProblemError('TASK_ALREADY_ANSWERED', `The task is ${task.state}: it takes no answer now.`, undefined, { state: task.state });
      }
      const misfit = answerMisfit(task.action, answer);
      if (misfit) throw new ProblemError('TASK_ANSWER_INVALID', `The answer does not fit the task: ${misfit}.`);
      await this.applyAnswer(tx, task, answer, { by: principal.id, byOperator: false });
      return this.view(tx, task);
    });
  }

  /**
   * Records an answer on a task locked by `checkToken` (or by `lockTask`), with its event, and moves the tasks that
   * come after it (`finish`). The caller checked that the answer fits (`answerMisfit`). For the API's answers, the
   * operator's settling and the webhook sender's answered calls.
   */
  async applyAnswer(tx: EntityManager, task: DataSystemTaskEntity, answer: TaskAnswer, source: AnswerSource): Promise<void> {
    const now = this.clock.now();
    const state = stateAfterAnswer(answer, task.attempts, task.maxAttempts);
    task.leaseExpiresAt = null;
    task.updatedAt = now;
    if (answer.outcome === 'error') {
      task.lastError = { message: answer.message, code: answer.code ?? null, retryable: answer.retryable, at: now.toISOString() };
    }
    if (state === 'queued') {
      // The token stays until the next claim supersedes it: the same answer sent again is recognised.
      task.state = 'queued';
      task.claimedBy = null;
      await tx.save(task);
      await this.events.requeued(tx, task, 'retryable_error', source.by, now);
      return;
    }
    task.state = state;
    task.outcome = answer;
    task.answeredAt = now;
    task.answeredBy = source.by;
    task.stateReason = answer.outcome === 'error' && answer.retryable ? 'attempts_exhausted' : source.byOperator ? operatorReason(answer) : null;
    await tx.save(task);
    const fileCount = source.fileCount ?? (await this.artifactIds(tx, [task.id])).get(task.id)?.length ?? 0;
    await this.events.answered(tx, task, source.by, now, { byOperator: source.byOperator, fileCount });
    await this.finish(tx, task, source.by, now);
  }

  /**
   * What a settled task does to the tasks of its request that come after it: once it finished (complete, not_found,
   * skipped) each whose dependencies all finished is queued, unless its system is paused or gone (it waits); once it
   * failed (error, cancelled) those waiting on it, directly or not, are blocked by it. `siblings` are the request's
   * tasks locked by the caller; read (and locked) here when not given.
   */
  async finish(tx: EntityManager, task: DataSystemTaskEntity, actor: string, at: Date, siblings?: DataSystemTaskEntity[]): Promise<void> {
    const all = siblings ?? (await this.lockRequest(tx, task.requestId));
    const self = all.find((t) => t.id === task.id);
    if (self && self !== task) Object.assign(self, { state: task.state });
    if (isFinished(task.state)) {
      const starting = toStart(task.id, all) as DataSystemTaskEntity[];
      if (starting.length === 0) return;
      const systems = await this.systemsOf(task.tenantId, task.action);
      for (const next of starting) {
        const system = systems.get(next.systemKey);
        if (!system || system.paused) continue;
        await this.start(tx, next, system, actor, at);
      }
    } else if (isFailed(task.state)) {
      for (const next of toBlock(task.id, all) as DataSystemTaskEntity[]) {
        next.state = 'blocked';
        next.blockedBy = task.id;
        next.updatedAt = at;
        await tx.save(next);
        await this.events.blocked(tx, next, task.id, actor, at);
      }
    }
  }

  /** Queues a waiting task whose turn came, with its requested event (what push connectors react to). */
  async start(tx: EntityManager, task: DataSystemTaskEntity, system: Pick<DataSystemView, 'displayName' | 'owner'>, actor: string, at: Date): Promise<void> {
    task.state = 'queued';
    task.blockedBy = null;
    task.updatedAt = at;
    await tx.save(task);
    await this.events.requested(tx, task, system, actor, at);
  }

  /**
   * Starts the waiting tasks of a system whose turn came while it was paused: called after the system is resumed
   * (its PUT with `paused: false`; nothing happens when none waits). Returns how many were queued.
   */
  async startWaiting(tenantId: string, systemKey: string): Promise<number> {
    return this.uow.run(async (tx) => {
      const waiting = await tx.find(DataSystemTaskEntity, { where: { tenantId, systemKey, state: 'waiting' }, select: { requestId: true } });
      const requests = [...new Set(waiting.map((t) => t.requestId))].sort();
      let started = 0;
      const now = this.clock.now();
      for (const requestId of requests) {
        const all = await this.lockRequest(tx, requestId);
        const byId = new Map(all.map((t) => [t.id, t]));
        for (const task of all.filter((t) => t.systemKey === systemKey && t.state === 'waiting')) {
          const system = (await this.systemsOf(tenantId, task.action)).get(systemKey);
          if (!system || system.paused) continue;
          if (startState(task.dependsOn, byId, false).state !== 'queued') continue;
          await this.start(tx, task, system, TASK_SYSTEM_ACTOR, now);
          started++;
        }
      }
      return started;
    });
  }

  /** The request's tasks as operators see them, by system key; empty for a request that was not fanned out. */
  async forRequest(scope: TenantScope, requestId: string): Promise<{ items: TaskView[] }> {
    if (!isUuid(requestId)) return { items: [] };
    const where = { tenantId: scope.tenantId, requestId, ...(scope.workspaceId !== undefined ? { workspaceId: scope.workspaceId } : {}) };
    const rows = await this.db.getRepository(DataSystemTaskEntity).find({ where, order: { systemKey: 'ASC', action: 'ASC' } });
    const files = await this.artifactIds(
      this.db,
      rows.map((r) => r.id),
    );
    return { items: rows.map((r) => taskViewOf(r, files.get(r.id))) };
  }

  /** The request's required tasks the fulfilment gate waits for: neither answered (complete, not_found, skipped) nor cancelled. */
  async openRequired(tx: EntityManager, requestId: string): Promise<DataSystemTaskEntity[]> {
    const rows = await tx.find(DataSystemTaskEntity, { where: { requestId, required: true }, order: { systemKey: 'ASC' } });
    return rows.filter((t) => !GATE_SETTLED.includes(t.state));
  }

  /** An operator's retry: the task is queued afresh (attempts from zero, new SLA dates), and the tasks it blocked wait for it again. */
  async retry(principal: Principal, requestId: string, taskId: string, command: RetryCommand): Promise<TaskView> {
    return this.uow.run(async (tx) => {
      const { task, siblings } = await this.lockRequestTask(tx, principal, requestId, taskId, 'retry');
      const system = (await this.systemsOf(task.tenantId, task.action)).get(task.systemKey);
      if (!system) throw stateConflict(task, 'retry', 'its data system was deleted');
      const now = this.clock.now();
      const wasBlocked = task.state === 'blocked';
      const byId = new Map(siblings.map((t) => [t.id, t]));
      // A blocked task the operator retries goes ahead without the failed one; any other waits for its dependencies as at its start.
      const next = wasBlocked ? { state: system.paused ? ('waiting' as const) : ('queued' as const) } : startState(task.dependsOn, byId, system.paused);
      Object.assign(task, {
        state: next.state,
        blockedBy: next.state === 'blocked' ? next.blockedBy : null,
        stateReason: command.reason ?? null,
        attempts: 0,
        outcome: null,
        answeredAt: null,
        answeredBy: null,
        claimedBy: null,
        leaseExpiresAt: null,
        tokenSha256: null,
        tokenExpiresAt: null,
        nextAttemptAt: null,
        remindedAt: null,
        escalatedAt: null,
        dueAt: taskDueAt(now, system.sla.expectedHours, task.legalDueAt),
        timeoutAt: new Date(now.getTime() + system.sla.timeoutHours * HOUR_MS),
        updatedAt: now,
      });
      await tx.save(task);
      if (task.state === 'queued') await this.events.requeued(tx, task, 'operator_retry', principal.id, now);
      else if (task.state === 'waiting') await this.events.requested(tx, task, system, principal.id, now);
      else if (task.state === 'blocked' && task.blockedBy) await this.events.blocked(tx, task, task.blockedBy, principal.id, now);
      for (const dependant of toUnblock(task.id, siblings) as DataSystemTaskEntity[]) {
        dependant.state = 'waiting';
        dependant.blockedBy = null;
        dependant.updatedAt = now;
        await tx.save(dependant);
      }
      return this.view(tx, task);
    });
  }

  /** An operator skips a task with a reason: settled `skipped`, the systems after it start. */
  async skip(principal: Principal, requestId: string, taskId: string, command: SkipCommand): Promise<TaskView> {
    return this.uow.run(async (tx) => {
      const { task } = await this.lockRequestTask(tx, principal, requestId, taskId, 'skip');
      await this.applyAnswer(tx, task, { outcome: 'skipped', reason: command.reason }, { by: principal.id, byOperator: true });
      return this.view(tx, task);
    });
  }

  /** An operator settles a task by hand with the evidence: `complete` (an erasure with its confirmation) or `not_found`. */
  async complete(principal: Principal, requestId: string, taskId: string, command: CompleteCommand): Promise<TaskView> {
    return this.uow.run(async (tx) => {
      const { task } = await this.lockRequestTask(tx, principal, requestId, taskId, 'complete');
      const answer: TaskAnswer =
        command.outcome === 'complete' ? { outcome: 'complete', note: command.evidence, ...(command.erasure ? { erasure: command.erasure } : {}) } : { outcome: 'not_found', note: command.evidence };
      const misfit = answerMisfit(task.action, command.outcome === 'not_found' && command.erasure ? { outcome: 'not_found', erasure: command.erasure } : answer);
      if (misfit) throw new ProblemError('TASK_ANSWER_INVALID', `The settling does not fit the task: ${misfit}.`);
      await this.applyAnswer(tx, task, answer, { by: principal.id, byOperator: true });
      return this.view(tx, task);
    });
  }

  /**
   * The request was closed or refused: its open tasks are cancelled (event stopped, reason request_closed); their
   * tokens stop working for answers. Called in the transaction of the request's event. Returns how many.
   */
  async cancelOpen(tx: EntityManager, requestId: string, actor: string): Promise<number> {
    const all = await this.lockRequest(tx, requestId);
    const now = this.clock.now();
    let cancelled = 0;
    for (const task of all.filter((t) => t.state === 'waiting' || t.state === 'queued' || t.state === 'claimed' || t.state === 'action_required' || t.state === 'blocked')) {
      task.state = 'cancelled';
      task.stateReason = 'request_closed';
      task.leaseExpiresAt = null;
      task.updatedAt = now;
      await tx.save(task);
      await this.events.stopped(tx, task, 'request_closed', actor, now);
      cancelled++;
    }
    return cancelled;
  }

  /**
   * Queues a task again (a lapsed lease, a failed webhook call with its backoff `nextAttemptAt`), with its requeued
   * event; a task whose attempts are spent fails instead (`error`, attempts_exhausted, its dependants blocked). The
   * token stays until the next claim supersedes it. `task` is locked with its request's tasks (`lockTask`).
   */
  async requeue(tx: EntityManager, task: DataSystemTaskEntity, reason: TaskRequeuedV1['reason'], actor: string, nextAttemptAt: Date | null = null): Promise<void> {
    if (task.attempts >= task.maxAttempts) return this.exhaust(tx, task);
    const now = this.clock.now();
    task.state = 'queued';
    task.claimedBy = null;
    task.leaseExpiresAt = null;
    task.nextAttemptAt = nextAttemptAt;
    task.updatedAt = now;
    await tx.save(task);
    await this.events.requeued(tx, task, reason, actor, now);
  }

  /**
   * Settles a task without an answer (the watchdog: timed out → `skipped` or `action_required`, system deleted →
   * `action_required`), with its stopped event and what it does to the tasks after it (`finish`).
   */
  async stop(
    tx: EntityManager,
    task: DataSystemTaskEntity,
    state: 'skipped' | 'action_required' | 'error',
    reason: TaskStoppedV1['reason'],
    actor: string,
    siblings?: DataSystemTaskEntity[],
  ): Promise<void> {
    const now = this.clock.now();
    task.state = state;
    task.stateReason = reason;
    task.claimedBy = null;
    task.leaseExpiresAt = null;
    task.updatedAt = now;
    await tx.save(task);
    await this.events.stopped(tx, task, reason, actor, now);
    await this.finish(tx, task, actor, now, siblings);
  }

  /** A task of the tenant with the request's tasks, all locked (in id order) for a change; 404 TASK_NOT_FOUND for an unknown or another tenant's. */
  async lockTask(tx: EntityManager, tenantId: string, taskId: string): Promise<{ task: DataSystemTaskEntity; siblings: DataSystemTaskEntity[] }> {
    const found = await this.find(tx, tenantId, taskId);
    const siblings = await this.lockRequest(tx, found.requestId);
    const task = siblings.find((t) => t.id === taskId);
    if (!task) throw taskNotFound(taskId);
    return { task, siblings };
  }

  /** Every task of the request, locked in id order: the one lock order of every change, so changes take turns and never deadlock. */
  async lockRequest(tx: EntityManager, requestId: string): Promise<DataSystemTaskEntity[]> {
    return tx.find(DataSystemTaskEntity, { where: { requestId }, order: { id: 'ASC' }, lock: { mode: 'pessimistic_write' } });
  }

  /** The view of one task, with its files. */
  async view(db: EntityManager, task: DataSystemTaskEntity): Promise<TaskView> {
    return taskViewOf(task, (await this.artifactIds(db, [task.id])).get(task.id));
  }

  /** The request's task (404 TASK_NOT_FOUND otherwise), locked with its siblings, in a state that allows the operator's action (409 TASK_STATE_CONFLICT). */
  private async lockRequestTask(tx: EntityManager, principal: Principal, requestId: string, taskId: string, action: OperatorAction) {
    const { task, siblings } = await this.lockTask(tx, principal.tenantId, taskId);
    // A caller confined to a workspace sees no request of another (or of none): the gateway's answer for such a request.
    if (!inScope(principal, task)) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${requestId} does not exist.`);
    if (task.requestId !== requestId) throw taskNotFound(taskId);
    const allowed = operatorActionsIn(task.state);
    if (!allowed.includes(action)) throw stateConflict(task, action, `it is ${task.state}`);
    return { task, siblings };
  }

  /** Fails a task whose attempts are spent: `error`, reason attempts_exhausted, its dependants blocked. */
  private exhaust(tx: EntityManager, task: DataSystemTaskEntity): Promise<void> {
    return this.stop(tx, task, 'error', 'attempts_exhausted', TASK_SYSTEM_ACTOR);
  }

  private async find(db: EntityManager, tenantId: string, taskId: string): Promise<DataSystemTaskEntity> {
    const task = isUuid(taskId) ? await db.findOne(DataSystemTaskEntity, { where: { id: taskId, tenantId } }) : null;
    if (!task) throw taskNotFound(taskId);
    return task;
  }

  /** The live systems of the tenant that take the action, by key (a deleted one is absent). */
  private async systemsOf(tenantId: string, action: DataSystemTaskEntity['action']): Promise<Map<string, DataSystemView>> {
    return new Map((await this.systems.activeFor(tenantId, action)).map((s) => [s.key, s]));
  }

  /** The files each task answered with (artifacts of the manifest that name the task). */
  private async artifactIds(db: EntityManager, taskIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (taskIds.length === 0) return out;
    const rows = await db.find(ArtifactEntity, { where: { taskId: In(taskIds), purgedAt: IsNull() }, select: { id: true, taskId: true }, order: { createdAt: 'ASC', id: 'ASC' } });
    for (const r of rows) if (r.taskId) out.set(r.taskId, [...(out.get(r.taskId) ?? []), r.id]);
    return out;
  }

  private leaseSeconds(asked: number | undefined): number {
    return Math.min(asked ?? LEASE_SECONDS.default, this.settings.taskLeaseMaxSeconds);
  }
}

/** The work a claim hands the system, with the token it got (shown once, never stored). */
export function workOf(task: DataSystemTaskEntity, token: string): TaskWork {
  return {
    taskId: task.id,
    requestId: task.requestId,
    requestType: task.requestType,
    systemKey: task.systemKey,
    action: task.action,
    legalDueAt: task.legalDueAt.toISOString(),
    dueAt: task.dueAt.toISOString(),
    identities: task.identities,
    dataCategories: task.dataCategories,
    attempt: task.attempts,
    leaseExpiresAt: (task.leaseExpiresAt as Date).toISOString(),
    token,
    tokenExpiresAt: (task.tokenExpiresAt as Date).toISOString(),
  };
}

/** The database's time in the transaction (leases and tokens are a mechanism on its clock). */
export async function dbNow(db: EntityManager): Promise<Date> {
  const [row] = (await db.query('SELECT now() AS now')) as [{ now: Date | string }];
  return new Date(row.now);
}

function taskNotFound(taskId: string): ProblemError {
  return new ProblemError('TASK_NOT_FOUND', `Task ${taskId.slice(0, 64)} does not exist.`);
}

function notClaimable(task: DataSystemTaskEntity, why?: string): ProblemError {
  const reason = why ?? (task.state === 'claimed' ? 'another worker holds it under a live lease' : task.state === 'queued' ? 'it is not due yet' : `it is ${task.state}`);
  return new ProblemError('TASK_NOT_CLAIMABLE', `The task cannot be claimed: ${reason}.`, undefined, { state: task.state });
}

function stateConflict(task: DataSystemTaskEntity, action: OperatorAction, why: string): ProblemError {
  return new ProblemError('TASK_STATE_CONFLICT', `The task cannot be ${action === 'retry' ? 'retried' : action === 'skip' ? 'skipped' : 'completed'}: ${why}.`, undefined, {
    state: task.state,
    allowedActions: operatorActionsIn(task.state),
  });
}

function sameError(recorded: { message: string; code: string | null; retryable: boolean }, answer: Extract<TaskAnswer, { outcome: 'error' }>): boolean {
  return recorded.message === answer.message && recorded.code === (answer.code ?? null) && recorded.retryable === answer.retryable;
}

/** The reason an operator's settling gives the state (the view's stateReason). */
function operatorReason(answer: TaskAnswer): string | null {
  return answer.outcome === 'skipped' ? answer.reason : null;
}

/** Whether the caller may see the task's request: any of its tenant's, or, for a caller confined to a workspace, that workspace's. */
function inScope(principal: Principal, task: Pick<DataSystemTaskEntity, 'workspaceId'>): boolean {
  return principal.workspaceId === undefined || task.workspaceId === principal.workspaceId;
}
