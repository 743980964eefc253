import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { actionOfRequestType, type DataSystemView, type Principal, type RequestDetail, type RequestType } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { DataSystems } from '../../data-systems/application/data-systems';
import { DATA_SYSTEM_SETTINGS, type DataSystemSettings } from '../../data-systems/data-system-settings';
import { requireRequestType } from '../../fulfilment/domain/request-type';
import { identitiesFor, identitiesOf, startState, taskDueAt } from '../domain/task-rules';
import { DataSystemFanoutEntity, DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';
import { TASK_SYSTEM_ACTOR, TaskEvents } from './task-events';
import { Tasks } from './tasks';

/** Who fulfilment-delivery is when it reads a request to fan it out. */
export const FANOUT_ACTOR = 'system:fulfilment-delivery';
/** How long one replica holds a fan-out before another may take it over (a crashed one's claim lapses). */
const CLAIM_LEASE_SECONDS = 60;
const BATCH = 20;
/** Fan-outs of one batch made at once. */
const PARALLEL = 4;
/** A fan-out that failed (lifecycle-clock away) is tried again after this, doubled per try, up to an hour. */
const RETRY_BASE_SECONDS = 15;
const RETRY_MAX_SECONDS = 3600;
const HOUR_MS = 3_600_000;
/** How long after an ask the service's commits start fan-out rounds. */
const KICK_WINDOW_MS = 10_000;

/** fulfilment-delivery acting within the request's tenant (and workspace), as an operator would read. */
export function fanoutPrincipal(tenantId: string, workspaceId?: string | null): Principal {
  return { id: FANOUT_ACTOR, tenantId, ...(workspaceId ? { workspaceId } : {}), roles: ['operator'] };
}

/**
 * The fan-out of a request to its data systems (docs/data-systems.md#fan-out). A lifecycle event that moves the
 * request into `in_progress` notes a fan-out in its own transaction (`ask`): the request must be read from
 * lifecycle-clock, and a transaction never waits on another service (embedded mode has one database session).
 * The fan-out job then reads the request as the service itself and, in one transaction, inserts one task per live
 * system of the tenant that takes the request's action (INSERT … ON CONFLICT DO NOTHING on request, system and
 * action), with the events of the rows it really inserted: a transition delivered twice, or two replicas at once,
 * create each task once. Replicas share the work by per-row claims (FOR UPDATE SKIP LOCKED); a kick after the
 * event's commit starts it at once, the schedule picks up what a crash left.
 */
@Injectable()
export class TaskFanout implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('TaskFanout');
  private readonly job: PeriodicJob<number>;
  /** When the last fan-out was asked for (performance.now()). */
  private askedAt?: number;
  /** Set within the job's rounds, whose own commits start no round. */
  private readonly inJob = new AsyncLocalStorage<true>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly lifecycle: LifecycleClient,
    private readonly systems: DataSystems,
    private readonly tasks: Tasks,
    private readonly events: TaskEvents,
    @Inject(DATA_SYSTEM_SETTINGS) private readonly settings: DataSystemSettings,
  ) {
    this.job = new PeriodicJob({ service: 'fulfilment-delivery', name: 'task-fanout', intervalMs: settings.taskWatchdogIntervalMs, whenBusy: 'follow', log: this.log }, (run) =>
      this.inJob.run(true, () => this.rounds(run)),
    );
    // The commit that follows an ask may be another transaction's, with the ask's still open: every commit but the
    // job's own for a short while after an ask starts a round (one that finds nothing is one query; a busy job
    // takes one follow-up).
    uow.afterCommit(() => {
      if (this.inJob.getStore() || this.askedAt === undefined || performance.now() - this.askedAt >= KICK_WINDOW_MS) return;
      this.job.trigger();
    });
  }

  onApplicationBootstrap(): void {
    this.job.start({ runAtStart: true });
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Notes a fan-out of the request in the caller's transaction (the event's), done once it commits. */
  async ask(tx: EntityManager, tenantId: string, workspaceId: string | null, requestId: string): Promise<void> {
    const now = this.clock.now();
    await tx.query(
      `INSERT INTO ${this.table} (request_id, tenant_id, workspace_id, state, asked_at, tries, updated_at)
       VALUES ($1, $2, $3, 'pending', $4, 0, $4)
       ON CONFLICT (request_id) DO UPDATE SET state = 'pending', asked_at = EXCLUDED.asked_at, claimed_until = NULL, tries = 0, last_error = NULL, updated_at = EXCLUDED.updated_at`,
      [requestId, tenantId, workspaceId, now],
    );
    this.askedAt = performance.now();
  }

  /**
   * A fan-out that ended without tasks because the request had no type yet (triage) or was marked as a duplicate is
   * asked again, in the caller's transaction (the correction's or the separation's event). Only a fan-out that was asked and ended is: one never asked (the request
   * has not moved into in_progress, or only without the verification FANOUT_REQUIRES_VERIFICATION wants) waits for
   * its move, and a cancelled one (the request closed) stays cancelled.
   */
  async askAgain(tx: EntityManager, requestId: string): Promise<void> {
    const now = this.clock.now();
    // A WITH around the UPDATE: a bare UPDATE … RETURNING answers [rows, count] through TypeORM's query().
    const rows: unknown[] = await tx.query(
      `WITH asked AS (
         UPDATE ${this.table} SET state = 'pending', asked_at = $2, claimed_until = NULL, tries = 0, last_error = NULL, updated_at = $2
          WHERE request_id = $1 AND state = 'done' RETURNING request_id)
       SELECT request_id FROM asked`,
      [requestId, now],
    );
    if (rows.length > 0) this.askedAt = performance.now();
  }

  /**
   * The request was closed or refused: a fan-out not done yet is dropped, and its open tasks are cancelled. The
   * fan-out row is the request's lock between the two: a fan-out that read the request before it closed either
   * committed first (its tasks are cancelled here) or finds the row cancelled and creates nothing.
   */
  async cancel(tx: EntityManager, tenantId: string, workspaceId: string | null, requestId: string, actor: string): Promise<number> {
    const now = this.clock.now();
    await tx.query(
      `INSERT INTO ${this.table} (request_id, tenant_id, workspace_id, state, asked_at, tries, updated_at)
       VALUES ($1, $2, $3, 'cancelled', $4, 0, $4)
       ON CONFLICT (request_id) DO UPDATE SET state = 'cancelled', claimed_until = NULL, updated_at = EXCLUDED.updated_at`,
      [requestId, tenantId, workspaceId, now],
    );
    return this.tasks.cancelOpen(tx, requestId, actor);
  }

  /** Runs fan-outs until none is pending; returns how many requests were handled (tests and tools call it). */
  drain(): Promise<number> {
    return this.job.runNow();
  }

  /**
   * The tasks of an in-progress request, created once: one per live system of the tenant that takes its action
   * (and those its closure cancelled, started afresh). Returns the tasks this call made or restarted (none when
   * another call made them first, or the request's fan-out was cancelled meanwhile).
   */
  async fanOut(detail: RequestDetail): Promise<DataSystemTaskEntity[]> {
    // Nothing is asked of a data system without knowing which right (the job waits for the type; a direct call is refused).
    const typed = { ...detail, requestType: requireRequestType(detail, 'the fan-out to its data systems') };
    const action = actionOfRequestType(typed.requestType);
    return this.uow.run(async (tx) => {
      // The fan-out row is the request's lock against its closure (see `cancel`).
      const lock: Array<{ state: string }> = await tx.query(`SELECT state FROM ${this.table} WHERE request_id = $1 FOR UPDATE`, [detail.id]);
      if (lock[0]?.state === 'cancelled') return [];
      const systems = (await this.systems.activeFor(detail.tenantId, action)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      const now = this.clock.now();
      const legalDueAt = new Date(detail.dueAt);
      const identities = identitiesOf(detail);
      const inserted: DataSystemTaskEntity[] = [];
      // One order of inserts for every caller: a second fan-out waits on the first one's first row, then inserts nothing.
      for (const system of systems) {
        const task = this.newTask(typed, system, action, identitiesFor(identities, system.identityTypes), legalDueAt, now);
        const rows: unknown[] = await tx
          .createQueryBuilder()
          .insert()
          .into(DataSystemTaskEntity)
          .values(task)
          .orIgnore()
          .returning(['id'])
          .execute()
          .then((r) => r.raw as unknown[]);
        if (rows.length > 0) inserted.push(task);
      }
      const all = await this.tasks.lockRequest(tx, detail.id);
      const bySystem = new Map(systems.map((s) => [s.key, s]));
      // Tasks cancelled by an earlier closure start afresh now that the request is workable again (reopened on appeal).
      const revived = all.filter((t) => t.action === action && t.state === 'cancelled' && t.stateReason === 'request_closed' && bySystem.has(t.systemKey));
      for (const task of revived) {
        const system = bySystem.get(task.systemKey) as DataSystemView;
        Object.assign(task, this.newTask(typed, system, action, identitiesFor(identities, system.identityTypes), legalDueAt, now), { id: task.id, createdAt: task.createdAt });
      }
      const fresh = [...inserted, ...revived];
      if (fresh.length === 0) {
        await this.done(tx, detail.id);
        return [];
      }
      const byKey = new Map(all.filter((t) => t.action === action).map((t) => [t.systemKey, t]));
      for (const task of fresh) {
        task.dependsOn = (bySystem.get(task.systemKey)?.after ?? []).map((key) => byKey.get(key)?.id).filter((id): id is string => id !== undefined);
      }
      // Settle the new tasks in an order where a task comes after those it depends on (the registry keeps `after` acyclic):
      // one skipped for want of an identity has finished, and those after it may start at once.
      const byId = new Map(all.map((t) => [t.id, t]));
      for (const t of fresh) byId.set(t.id, t);
      for (const task of dependencyOrder(fresh)) {
        const system = bySystem.get(task.systemKey) as DataSystemView;
        if (task.identities.length === 0) {
          // Settled by the service, not answered: as every stop, it has a reason and no answer.
          task.state = 'skipped';
          task.stateReason = 'no_identity';
        } else {
          const start = startState(task.dependsOn, byId, system.paused);
          task.state = start.state;
          task.blockedBy = start.state === 'blocked' ? start.blockedBy : null;
        }
        await tx.save(task);
        if (task.state === 'skipped') await this.events.stopped(tx, task, 'no_identity', TASK_SYSTEM_ACTOR, now);
        else if (task.state === 'queued' || task.state === 'waiting') await this.events.requested(tx, task, system, TASK_SYSTEM_ACTOR, now);
        else if (task.state === 'blocked' && task.blockedBy) await this.events.blocked(tx, task, task.blockedBy, TASK_SYSTEM_ACTOR, now);
      }
      await this.done(tx, detail.id);
      return fresh;
    });
  }

  private newTask(
    detail: RequestDetail & { requestType: RequestType },
    system: DataSystemView,
    action: DataSystemTaskEntity['action'],
    identities: DataSystemTaskEntity['identities'],
    legalDueAt: Date,
    now: Date,
  ) {
    const task = new DataSystemTaskEntity();
    Object.assign(task, {
      id: randomUUID(),
      tenantId: detail.tenantId,
      workspaceId: detail.workspaceId,
      requestId: detail.id,
      requestType: detail.requestType,
      systemKey: system.key,
      systemVersion: system.version,
      action,
      mode: system.mode,
      required: system.required,
      state: 'waiting',
      stateReason: null,
      attempts: 0,
      maxAttempts: this.settings.taskMaxAttempts,
      dependsOn: [],
      blockedBy: null,
      legalDueAt,
      dueAt: taskDueAt(now, system.sla.expectedHours, legalDueAt),
      timeoutAt: new Date(now.getTime() + system.sla.timeoutHours * HOUR_MS),
      nextAttemptAt: null,
      leaseExpiresAt: null,
      claimedBy: null,
      tokenSha256: null,
      tokenExpiresAt: null,
      identities,
      dataCategories: system.dataCategories,
      outcome: null,
      lastError: null,
      remindedAt: null,
      escalatedAt: null,
      answeredAt: null,
      answeredBy: null,
      createdAt: now,
      updatedAt: now,
    } satisfies DataSystemTaskEntity);
    return task;
  }

  private get table(): string {
    return qualifiedTable(this.uow.dataSource, 'data_system_fanout');
  }

  private async done(tx: EntityManager, requestId: string): Promise<void> {
    await tx.query(`UPDATE ${this.table} SET state = 'done', claimed_until = NULL, updated_at = $2 WHERE request_id = $1 AND state = 'pending'`, [requestId, this.clock.now()]);
  }

  private async rounds(run: JobRun): Promise<number> {
    let handled = 0;
    // Yields without resting: the fan-out follows the requests' own moves and must keep up with them (ADR 0043).
    const pacer = run.pacer({ share: 1 });
    do {
      run.takeFollowUp();
      for (;;) {
        const claimed = await this.claim();
        // A few at once: each waits mostly on lifecycle-clock and on its commit, and the requests share no row.
        for (let i = 0; i < claimed.length; i += PARALLEL) {
          if (!(await pacer.pause())) return handled;
          const chunk = claimed.slice(i, i + PARALLEL);
          await Promise.all(chunk.map((row) => this.process(row)));
          handled += chunk.length;
        }
        if (claimed.length < BATCH) break;
      }
    } while (run.takeFollowUp() && !run.stopping);
    return handled;
  }

  private claim(): Promise<DataSystemFanoutEntity[]> {
    return this.uow.run(async (tx) => {
      const rows: Array<{ request_id: string }> = await tx.query(
        `WITH claimed AS (
           UPDATE ${this.table} SET claimed_until = now() + interval '${CLAIM_LEASE_SECONDS} seconds'
            WHERE request_id IN (SELECT request_id FROM ${this.table}
                                  WHERE state = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
                                  ORDER BY asked_at LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING request_id)
         SELECT request_id FROM claimed`,
        [BATCH],
      );
      if (rows.length === 0) return [];
      return tx.getRepository(DataSystemFanoutEntity).find({ where: rows.map((r) => ({ requestId: r.request_id })), order: { askedAt: 'ASC' } });
    });
  }

  /** One claimed fan-out: the request read outside any transaction, then its tasks made in one. */
  private async process(row: DataSystemFanoutEntity): Promise<void> {
    let detail: RequestDetail | null;
    try {
      detail = await this.lifecycle.request(fanoutPrincipal(row.tenantId, row.workspaceId), row.requestId);
    } catch (e) {
      if (e instanceof ProblemError && e.status === 404) detail = null;
      else return this.failed(row, e);
    }
    try {
      // Gone (purged), or no longer in progress (verification asked, closed…): a later move into in_progress asks again.
      if (!detail || detail.status !== 'in_progress') {
        await this.uow.run((tx) => this.done(tx, row.requestId));
        return;
      }
      if (detail.requestType === null) {
        // In triage: nothing is asked of a data system without knowing which right. The correction that names the
        // type asks for the fan-out again (RequestTasksHandler), so this one ends here.
        await this.uow.run((tx) => this.done(tx, row.requestId));
        return;
      }
      if (detail.duplicate?.state === 'marked') {
        // Marked as a duplicate at intake: its systems are asked once, by the request it repeats, unless an operator
        // separates the two; the separation asks for the fan-out again (RequestTasksHandler), so this one ends here.
        await this.uow.run((tx) => this.done(tx, row.requestId));
        return;
      }
      await this.fanOut(detail);
    } catch (e) {
      await this.failed(row, e);
    }
  }

  private async failed(row: DataSystemFanoutEntity, e: unknown): Promise<void> {
    const tries = row.tries + 1;
    const wait = Math.min(RETRY_BASE_SECONDS * 2 ** Math.min(tries - 1, 12), RETRY_MAX_SECONDS);
    const message = (e instanceof Error ? e.message : String(e)).slice(0, 300);
    this.log.warn(`fan-out of request ${row.requestId} failed (try ${tries}), again in ${wait} s: ${message}`);
    await this.uow
      .run((tx) =>
        tx.query(`UPDATE ${this.table} SET tries = $2, last_error = $3, claimed_until = now() + ($4 || ' seconds')::interval WHERE request_id = $1 AND state = 'pending'`, [
          row.requestId,
          tries,
          message,
          String(wait),
        ]),
      )
      .catch(() => undefined);
  }
}

/** The tasks ordered so that each comes after those of the list it depends on. */
function dependencyOrder(tasks: DataSystemTaskEntity[]): DataSystemTaskEntity[] {
  const ids = new Set(tasks.map((t) => t.id));
  const placed = new Set<string>();
  const out: DataSystemTaskEntity[] = [];
  let left = [...tasks];
  while (left.length > 0) {
    const ready = left.filter((t) => t.dependsOn.every((d) => !ids.has(d) || placed.has(d)));
    // A cycle (the registry refuses them) would leave none ready: take the rest as they are rather than loop.
    const batch = ready.length > 0 ? ready : left;
    for (const t of batch) {
      placed.add(t.id);
      out.push(t);
    }
    left = left.filter((t) => !placed.has(t.id));
  }
  return out;
}
