import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { TaskOverdueV1 } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type BatchPacer, type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { type DataSystem, DataSystems } from '../../data-systems/application/data-systems';
import { DATA_SYSTEM_SETTINGS, type DataSystemSettings } from '../../data-systems/data-system-settings';
import { isEscalationDue, isLeaseLapsed, isOrphaned, isReminderDue, isTimedOut, ORPHAN_STATES, timeoutOutcome, WORKED_STATES } from '../domain/watchdog-rules';
import type { DataSystemTaskEntity } from '../infrastructure/data-system-task.entity';
import { TASK_SYSTEM_ACTOR, TaskEvents } from './task-events';
import { dbNow, Tasks } from './tasks';
import { type WebhookRound, WebhookSender } from './webhook-sender';

/** Tasks one sweep looks at per page, and pages per sweep: a backlog is worked off over several runs. */
const BATCH = 100;
const MAX_PAGES = 10;

/** What one run did (tests and the log). */
export interface WatchdogRun {
  reminded: number;
  escalated: number;
  timedOut: number;
  requeued: number;
  orphaned: number;
  webhook: WebhookRound;
}

type Sweep = 'reminder' | 'escalation' | 'timeout' | 'lease' | 'orphan';

/**
 * The task watchdog (docs/data-systems.md#chasing), one periodic job of fulfilment-delivery every
 * TASK_WATCHDOG_INTERVAL_MS: overdue reminders to the owner and escalations to operators (dsar.task.overdue.v1,
 * each once), timeouts as the system's SLA says (skipped or action_required, reason timed_out), lapsed leases back
 * to the queue (requeued, lease_expired), open tasks of deleted systems to an operator (action_required,
 * system_deleted), then a round of the webhook sender. Safe with any number of replicas without a claim of the
 * whole run: candidates are read in bounded pages, and each is changed in a transaction that locks the request's
 * tasks (Tasks.lockRequest, their one lock order) and checks the condition again, so a second replica finds the
 * work done and changes nothing. The `reminded_at` and `escalated_at` marks make each alert once. Each page and each
 * task is a batch that yields to the requests (ADR 0043).
 */
@Injectable()
export class TaskWatchdog implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('TaskWatchdog');
  private readonly job: PeriodicJob<WatchdogRun>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly tasks: Tasks,
    private readonly events: TaskEvents,
    private readonly systems: DataSystems,
    private readonly sender: WebhookSender,
    @Inject(DATA_SYSTEM_SETTINGS) private readonly settings: DataSystemSettings,
  ) {
    this.job = new PeriodicJob(
      { service: 'fulfilment-delivery', name: 'task-watchdog', intervalMs: settings.taskWatchdogIntervalMs, jitterMs: Math.floor(settings.taskWatchdogIntervalMs / 10), log: this.log },
      (run) => this.runOnce(run),
    );
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** One run now, after the one under way (tests and tools). */
  sweep(): Promise<WatchdogRun> {
    return this.job.runNow();
  }

  private async runOnce(run: JobRun): Promise<WatchdogRun> {
    const pacer = run.pacer();
    const result: WatchdogRun = {
      reminded: await this.each('reminder', pacer),
      escalated: await this.each('escalation', pacer),
      // Timeouts before leases: a claim that lapses at the timeout (a webhook's 202) is the SLA's to settle.
      timedOut: await this.each('timeout', pacer),
      requeued: await this.each('lease', pacer),
      orphaned: await this.each('orphan', pacer),
      webhook: await this.sender.round(() => run.stopping),
    };
    const changed = result.reminded + result.escalated + result.timedOut + result.requeued + result.orphaned;
    if (changed > 0) {
      this.log.log(`tasks: ${result.reminded} reminded, ${result.escalated} escalated, ${result.timedOut} timed out, ${result.requeued} requeued, ${result.orphaned} of deleted systems`);
    }
    return result;
  }

  /** Works one sweep's candidates page by page (at most MAX_PAGES); returns how many tasks it changed. */
  private async each(sweep: Sweep, pacer: BatchPacer): Promise<number> {
    let changed = 0;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES && !pacer.stopping; page++) {
      const ids = (await this.candidates(sweep)).filter((id) => !seen.has(id));
      for (const id of ids) {
        if (!(await pacer.pause())) break;
        seen.add(id);
        if (await this.apply(sweep, id)) changed++;
      }
      // A page of candidates all seen (changed by another replica, or left as they were) ends the sweep.
      if (ids.length === 0) break;
    }
    return changed;
  }

  /** Ids of tasks that look due for a sweep (checked again under the lock), oldest due first. */
  private async candidates(sweep: Sweep): Promise<string[]> {
    const t = qualifiedTable(this.uow.dataSource, 'data_system_task');
    const now = this.clock.now();
    const worked = `t.state IN (${WORKED_STATES.map((s) => `'${s}'`).join(', ')})`;
    const queries: Record<Sweep, { sql: string; params: unknown[] }> = {
      reminder: { sql: `SELECT t.id FROM ${t} t WHERE ${worked} AND t.reminded_at IS NULL AND t.due_at <= $1 ORDER BY t.due_at, t.id LIMIT $2`, params: [now, BATCH] },
      escalation: {
        sql: `SELECT t.id FROM ${t} t WHERE ${worked} AND t.escalated_at IS NULL
                AND LEAST(t.due_at + ($3::int * interval '1 hour'), t.timeout_at) <= $1 ORDER BY t.due_at, t.id LIMIT $2`,
        params: [now, BATCH, this.settings.taskEscalateAfterHours],
      },
      timeout: { sql: `SELECT t.id FROM ${t} t WHERE ${worked} AND t.timeout_at <= $1 ORDER BY t.timeout_at, t.id LIMIT $2`, params: [now, BATCH] },
      lease: {
        sql: `SELECT t.id FROM ${t} t WHERE t.state = 'claimed' AND t.lease_expires_at <= now() AND t.timeout_at > $1 ORDER BY t.lease_expires_at, t.id LIMIT $2`,
        params: [now, BATCH],
      },
      orphan: {
        sql: `SELECT t.id FROM ${t} t JOIN ${qualifiedTable(this.uow.dataSource, 'data_system')} s ON s.tenant_id = t.tenant_id AND s.key = t.system_key
               WHERE t.state IN (${ORPHAN_STATES.map((s) => `'${s}'`).join(', ')}) AND s.deleted_at IS NOT NULL ORDER BY t.created_at, t.id LIMIT $1`,
        params: [BATCH],
      },
    };
    const rows: Array<{ id: string }> = await this.uow.manager.query(queries[sweep].sql, queries[sweep].params);
    return rows.map((r) => r.id);
  }

  /** One task's change for a sweep, under the lock of its request's tasks, if its condition still holds; true when it changed. */
  private apply(sweep: Sweep, id: string): Promise<boolean> {
    return this.uow.run(async (tx) => {
      const tenant: Array<{ tenant_id: string }> = await tx.query(`SELECT tenant_id FROM ${qualifiedTable(this.uow.dataSource, 'data_system_task')} WHERE id = $1`, [id]);
      if (tenant.length === 0) return false;
      const { task, siblings } = await this.tasks.lockTask(tx, tenant[0].tenant_id, id);
      const now = this.clock.now();
      const system = await this.systems.get(task.tenantId, task.systemKey, { includeDeleted: true, tx });
      switch (sweep) {
        case 'reminder':
          if (!isReminderDue(task, now) || !system) return false;
          task.remindedAt = now;
          return this.overdue(tx, task, system, 'reminder', now);
        case 'escalation':
          if (!isEscalationDue(task, now, this.settings.taskEscalateAfterHours) || !system) return false;
          task.escalatedAt = now;
          return this.overdue(tx, task, system, 'escalation', now);
        case 'timeout':
          if (!isTimedOut(task, now) || !system || system.deletedAt !== null) return false;
          return this.timeOut(tx, task, siblings, system, now);
        case 'lease':
          if (!isLeaseLapsed(task, await dbNow(tx), now)) return false;
          // Queued again for another worker, or failed for good once its attempts are spent.
          await this.tasks.requeue(tx, task, 'lease_expired', TASK_SYSTEM_ACTOR);
          return true;
        case 'orphan':
          if (!isOrphaned(task, system === null || system.deletedAt !== null)) return false;
          await this.tasks.stop(tx, task, 'action_required', 'system_deleted', TASK_SYSTEM_ACTOR);
          return true;
      }
    });
  }

  /** The overdue event of a stage, with the system's name and owner (the notifier tells them); the mark is saved with it. */
  private async overdue(tx: EntityManager, task: DataSystemTaskEntity, system: DataSystem, stage: TaskOverdueV1['stage'], now: Date): Promise<boolean> {
    await tx.save(task);
    await this.events.overdue(tx, task, stage, system, TASK_SYSTEM_ACTOR, now);
    return true;
  }

  /**
   * A timeout as the system's SLA says: `skip` settles the task skipped (its skip is its answer, so a late answer is
   * refused as already answered; the systems after it start); `pause` leaves it to an operator (action_required).
   */
  private async timeOut(tx: EntityManager, task: DataSystemTaskEntity, siblings: DataSystemTaskEntity[], system: DataSystem, now: Date): Promise<boolean> {
    const state = timeoutOutcome(system.sla.onTimeout);
    if (state === 'skipped') {
      task.outcome = { outcome: 'skipped', reason: 'timed_out' };
      task.answeredAt = now;
      task.answeredBy = TASK_SYSTEM_ACTOR;
    }
    await this.tasks.stop(tx, task, state, 'timed_out', TASK_SYSTEM_ACTOR, siblings);
    return true;
  }
}
