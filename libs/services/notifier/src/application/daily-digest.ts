import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { QueuePage } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { LifecycleClient } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { dueDigestDate } from '../domain/digest-schedule';
import { NOTIFIER_SETTINGS, type NotifierSettings, operatorSettingsOf } from '../notifier-settings';
import { Dispatcher } from './dispatcher';
import { Notifications } from './notifications';
import { notifierPrincipal } from './system-principal';

type QueueItem = QueuePage['items'][number];

/** How often the digest checks whether a tenant's time has come. */
const CHECK_INTERVAL_MS = 60_000;
/** The most requests a digest lists per group (the counts are exact up to the queue's page). */
const DIGEST_LIMIT = 200;

/**
 * The operators' daily digest of requests at risk (due within the configured
 * days) and overdue, per tenant with operator channels, at the tenant's time
 * in its zone. Each tenant's digest of a day is recorded once (its cause
 * `digest:<tenant>:<date>`), whichever replica gets there first. Each
 * tenant is a batch that yields to the requests (ADR 0043).
 */
@Injectable()
export class DailyDigest implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('DailyDigest');
  private readonly job: PeriodicJob<number>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly lifecycle: LifecycleClient,
    private readonly notifications: Notifications,
    private readonly dispatcher: Dispatcher,
    @Inject(NOTIFIER_SETTINGS) private readonly settings: NotifierSettings,
  ) {
    // The digest goes out with the notifications: a notifier that does not dispatch does not check either.
    const intervalMs = settings.dispatchIntervalMs > 0 ? CHECK_INTERVAL_MS : 0;
    this.job = new PeriodicJob({ service: 'notifier', name: 'daily-digest', intervalMs, log: this.log }, (run) => this.recordDue(run));
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** Records every digest due now and not recorded yet; returns how many. A check under way is waited for first. */
  run(): Promise<number> {
    return this.job.runNow();
  }

  private async recordDue(run: JobRun): Promise<number> {
    const now = this.clock.now();
    const pacer = run.pacer();
    let recorded = 0;
    for (const tenantId of await this.tenants()) {
      if (!(await pacer.pause())) break;
      const operators = operatorSettingsOf(this.settings, tenantId);
      const date = dueDigestDate(now, operators.digestTime, operators.timeZone);
      if (!date || this.notifications.channelsFor(tenantId, 'operators').length === 0) continue;
      if (await this.exists(tenantId, date)) continue;
      const page = await this.lifecycle.queue(notifierPrincipal(tenantId), { atRiskDays: this.settings.digestAtRiskDays, sortBy: 'dueAt', sortOrder: 'asc', limit: DIGEST_LIMIT });
      const row = (i: QueueItem) => ({ requestId: i.id, dueAt: i.dueAt, status: i.status });
      const id = await this.notifications.recordNow({
        tenantId,
        workspaceId: null,
        requestId: null,
        kind: 'daily_digest',
        audience: 'operators',
        sourceKey: `digest:${tenantId}:${date}`,
        sourceEventId: null,
        facts: { digestDate: now.toISOString(), atRisk: page.items.filter((i) => !i.overdue).map(row), overdue: page.items.filter((i) => i.overdue).map(row) },
      });
      if (id) recorded++;
    }
    if (recorded > 0) this.dispatcher.kick();
    return recorded;
  }

  /**
   * Tenants configured here, and every tenant the notifier has written for: one probe of the index that leads with
   * the tenant per tenant (a skip scan), where a DISTINCT would read every notification, every minute.
   */
  private async tenants(): Promise<string[]> {
    const notifications = qualifiedTable(this.uow.dataSource, 'notifications');
    const seen: Array<{ tenant_id: string }> = await this.uow.dataSource.query(
      `WITH RECURSIVE tenants AS (
         (SELECT tenant_id FROM ${notifications} ORDER BY tenant_id LIMIT 1)
         UNION ALL
         SELECT (SELECT n.tenant_id FROM ${notifications} n WHERE n.tenant_id > t.tenant_id ORDER BY n.tenant_id LIMIT 1) FROM tenants t WHERE t.tenant_id IS NOT NULL)
       SELECT tenant_id FROM tenants WHERE tenant_id IS NOT NULL`,
    );
    return [...new Set([...Object.keys(this.settings.tenants), ...seen.map((r) => r.tenant_id)])].sort();
  }

  private async exists(tenantId: string, date: string): Promise<boolean> {
    const rows: unknown[] = await this.uow.dataSource.query(`SELECT 1 FROM ${qualifiedTable(this.uow.dataSource, 'notifications')} WHERE tenant_id = $1 AND source_key = $2 LIMIT 1`, [
      tenantId,
      `digest:${tenantId}:${date}`,
    ]);
    return rows.length > 0;
  }
}
