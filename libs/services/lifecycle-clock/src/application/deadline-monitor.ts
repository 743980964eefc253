import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DeadlineApproachingV1, type DeadlineBreachedV1, LifecycleEventTypes, OPEN_STATUSES, type RequestStatus } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { Metrics } from '@dsar/platform/observability';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { computeClock } from '@dsar/platform/deadline';
import { ClockEventEntity } from '../infrastructure/clock-event.entity';
import { DeadlineAlertEntity } from '../infrastructure/deadline-alert.entity';
import { RequestEntity } from '../infrastructure/request.entity';
import { RequestClock } from './request-clock';

export interface DeadlineMonitorSettings {
  /** How often the monitor scans; 0 turns it off. */
  intervalMs: number;
  /** Warning thresholds in days before a deadline, e.g. [7, 2]. */
  warningDays: readonly number[];
  /** Requests looked at per query. */
  batchSize: number;
}

export const DEADLINE_MONITOR_SETTINGS = Symbol('DEADLINE_MONITOR_SETTINGS');

type DeadlineKind = 'response' | 'acknowledgement';

/** The column each deadline lives in, and the extra condition under which it still matters. */
const DEADLINES: Record<DeadlineKind, { column: string; pending: string }> = {
  response: { column: 'due_at', pending: 'TRUE' },
  acknowledgement: { column: 'acknowledgement_due_at', pending: 'r.acknowledged_at IS NULL AND r.acknowledgement_due_at IS NOT NULL' },
};

const DAY_MS = 86_400_000;
const SERVICE = 'lifecycle-clock';
const OPEN_SQL = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * Watches the deadlines of open requests and emits
 * `dsar.request.deadline_approaching.v1` when one comes within a warning
 * threshold and `dsar.request.deadline_breached.v1` when it passes, for the
 * response deadline and, where the pack has one, the acknowledgement deadline.
 *
 * Safe with any number of replicas: an alert is claimed by inserting its row
 * (request, deadline, threshold, due date) in request_deadline_alerts in the
 * same transaction as its event, and rows being changed are skipped
 * (`FOR UPDATE SKIP LOCKED`), so each alert is emitted once. When a scan finds
 * several thresholds crossed at once (a request captured late, a monitor that
 * was down), only the most urgent one is emitted; the others are claimed
 * silently. A new due date (an extension, a reopening) gets its own alerts.
 * While the clock is paused by a pause that stops it (restart or suspend), the
 * request cannot breach and is left alone until it resumes. Each page and
 * each alert is a batch that yields to the requests (ADR 0043).
 */
@Injectable()
export class DeadlineMonitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('DeadlineMonitor');
  private readonly job: PeriodicJob<number>;
  private readonly thresholds: number[];

  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    @Inject(DEADLINE_MONITOR_SETTINGS) private readonly settings: DeadlineMonitorSettings,
    private readonly legalClock: RequestClock,
  ) {
    this.thresholds = [...new Set(settings.warningDays)].filter((d) => d > 0).sort((a, b) => a - b);
    this.job = new PeriodicJob(
      { service: SERVICE, name: 'deadline-scan', intervalMs: settings.intervalMs, log: this.log, onFailure: () => Metrics.get().deadlineScanFailures.inc({ service: SERVICE }) },
      (run) => this.scanAll(run),
    );
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** One scan of every open request; returns the events emitted. Overlapping calls wait for the scan under way. */
  scan(): Promise<number> {
    return this.job.runNow();
  }

  private async scanAll(run: JobRun): Promise<number> {
    const now = this.clock.now();
    const pacer = run.pacer();
    let emitted = 0;
    for (const kind of Object.keys(DEADLINES) as DeadlineKind[]) {
      let after: { due: Date; id: string } | undefined;
      for (;;) {
        const page = await this.candidates(kind, now, after);
        for (const candidate of page) {
          if (!(await pacer.pause())) return emitted;
          emitted += await this.alert(kind, candidate.id, candidate.due, now);
        }
        if (page.length < this.settings.batchSize) break;
        after = page[page.length - 1];
      }
    }
    if (emitted > 0) this.log.log(`${emitted} deadline alert(s) emitted`);
    return emitted;
  }

  /** The most urgent level a due date has reached: 0 once passed, else the smallest threshold it is within; null if none. */
  private levelOf(due: Date, now: Date): number | null {
    if (due.getTime() <= now.getTime()) return 0;
    return this.thresholds.find((days) => due.getTime() - days * DAY_MS <= now.getTime()) ?? null;
  }

  /**
   * Open requests whose deadline of this kind has reached a level not claimed yet, in due order,
   * one page after `after` (keyset paging, so requests skipped in code never hold up the rest).
   */
  private async candidates(kind: DeadlineKind, now: Date, after?: { due: Date; id: string }): Promise<Array<{ id: string; due: Date }>> {
    const { column, pending } = DEADLINES[kind];
    const widest = this.thresholds.length > 0 ? this.thresholds[this.thresholds.length - 1] : 0;
    const level = [`WHEN r.${column} <= $1::timestamptz THEN 0`, ...this.thresholds.map((d) => `WHEN r.${column} <= $1::timestamptz + interval '${d} days' THEN ${d}`)].join(' ');
    const rows: Array<{ id: string; due: Date }> = await this.uow.dataSource.query(
      `SELECT r.id, r.${column} AS due FROM ${this.table('requests')} r
        WHERE r.status IN (${OPEN_SQL}) AND ${pending}
          AND r.${column} <= $1::timestamptz + make_interval(days => $2)
          AND ($4::timestamptz IS NULL OR (r.${column}, r.id) > ($4::timestamptz, $5::uuid))
          AND NOT EXISTS (
            SELECT 1 FROM ${this.table('request_deadline_alerts')} a
             WHERE a.request_id = r.id AND a.deadline = $6 AND a.due_at = r.${column}
               AND a.threshold_days = (CASE ${level} END))
        ORDER BY r.${column}, r.id
        LIMIT $3`,
      [now, widest, this.settings.batchSize, after?.due ?? null, after?.id ?? null, kind],
    );
    return rows.map((r) => ({ id: r.id, due: new Date(r.due) }));
  }

  /** Claims and emits the alert a request has reached, if it still has; returns 1 when an event went out. */
  private async alert(kind: DeadlineKind, id: string, seenDue: Date, now: Date): Promise<number> {
    return this.uow.run(async (tx) => {
      const row = await tx.findOne(RequestEntity, { where: { id }, lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' } });
      // Changed since the scan (closed, acknowledged, extended) or being changed right now: the next scan decides.
      if (!row || !(OPEN_STATUSES as readonly string[]).includes(row.status)) return 0;
      const due = kind === 'response' ? row.dueAt : row.acknowledgedAt ? null : row.acknowledgementDueAt;
      if (!due || due.getTime() !== seenDue.getTime()) return 0;
      if (kind === 'response' && row.clockPausedSince && (await this.clockStopped(tx, row))) return 0;
      const level = this.levelOf(due, now);
      if (level === null) return 0;
      // The reached level and every wider one: a request seen first at 1 day left is not warned of 7 days later.
      const levels = [level, ...this.thresholds.filter((d) => d > level)];
      const claimed: Array<{ threshold_days: number }> = await tx.query(
        `INSERT INTO ${this.table('request_deadline_alerts')} (request_id, deadline, threshold_days, due_at, tenant_id, claimed_at)
         SELECT $1, $2, t, $3, $4, $5 FROM unnest($6::int[]) AS t
         ON CONFLICT DO NOTHING RETURNING threshold_days`,
        [row.id, kind, due, row.tenantId, now, levels],
      );
      if (!claimed.some((c) => c.threshold_days === level)) return 0;
      const facts = {
        requestId: row.id,
        tenantId: row.tenantId,
        workspaceId: row.workspaceId,
        status: row.status as RequestStatus,
        deadline: kind,
        dueAt: due.toISOString(),
        detectedAt: now.toISOString(),
      };
      const event =
        level === 0
          ? await this.outbox.record(tx, { type: LifecycleEventTypes.deadlineBreached, subject: row.id, tenantId: row.tenantId, data: facts satisfies DeadlineBreachedV1 })
          : await this.outbox.record(tx, {
              type: LifecycleEventTypes.deadlineApproaching,
              subject: row.id,
              tenantId: row.tenantId,
              data: { ...facts, thresholdDays: level } satisfies DeadlineApproachingV1,
            });
      await tx.update(DeadlineAlertEntity, { requestId: row.id, deadline: kind, thresholdDays: level, dueAt: due }, { eventId: event.id });
      Metrics.get().deadlineAlerts.inc({ service: SERVICE, deadline: kind, alert: level === 0 ? 'breached' : `${level}d` });
      return 1;
    });
  }

  /** Whether the open pause stops the clock (restart or suspend, started before the deadline): then no deadline can pass. */
  private async clockStopped(tx: EntityManager, row: RequestEntity): Promise<boolean> {
    const events = await tx.find(ClockEventEntity, { where: { requestId: row.id }, order: { seq: 'ASC' } });
    const open = computeClock(await this.legalClock.inputOf(tx, row, events)).segments.find((s) => s.to === null);
    return open !== undefined && !open.countsTowardDeadline;
  }

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }
}
