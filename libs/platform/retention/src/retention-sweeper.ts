import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RETENTION_CLASS_OWNERS, type RetentionClassReport, RetentionEventTypes, type RetentionPurgedV1, tenantSubject } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { Metrics } from '@dsar/platform/observability';
import { UnitOfWork } from '@dsar/platform/persistence';
import { type BatchPacer, type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { RETENTION_PURGERS, type RetentionClassPurger, type RetentionGroup, type RetentionPurge } from './retention-purger';
import { blockOf, cutoffOf, RetentionRules } from './retention-rules';
import { RETENTION_SETTINGS, type RetentionSettings } from './retention-settings';

/** The most groups a report lists per class; past it the report says `records` of what it counted. */
const REPORT_LIMIT = 10_000;

/** What one sweep did, per class. */
export type SweepResult = Partial<Record<RetentionClassPurger['retentionClass'], { groups: number; records: number }>>;

/** Called before each group a sweep purges (tests set a legal hold in the middle of a sweep with it). */
export type BeforePurge = (tenantId: string, group: RetentionGroup) => Promise<void>;

/**
 * The retention sweep of one service: for every tenant whose policy of a
 * class this service owns lets it purge, the groups of records past their
 * period are purged one transaction each. Each transaction first reads the
 * tenant's policy with a share lock and stops when purging is off or a legal
 * hold came in meanwhile, so a hold set during a sweep stops it at the next
 * group; the purger takes its rows with row locks, so with any number of
 * replicas each record is purged once. Each purge records
 * `dsar.retention.purged.v1` in the same transaction. The pages and the purges
 * are batches that yield to the requests (BatchPacer, ADR 0043); a sweep of a
 * stopping service ends at the next one.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('RetentionSweeper');
  private readonly job: PeriodicJob<SweepResult>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
    private readonly rules: RetentionRules,
    @Inject(RETENTION_PURGERS) private readonly purgers: RetentionClassPurger[],
    @Inject(RETENTION_SETTINGS) private readonly settings: RetentionSettings,
  ) {
    // A service's purgers all belong to it (RETENTION_CLASS_OWNERS), so the first names the service.
    const service = purgers.length > 0 ? RETENTION_CLASS_OWNERS[purgers[0].retentionClass] : 'none';
    this.job = new PeriodicJob({ service, name: 'retention-sweep', intervalMs: settings.intervalMs, log: this.log }, (run) => this.sweepAll(run));
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** One sweep of every class the service owns; a sweep under way is waited for first. */
  sweep(beforePurge?: BeforePurge): Promise<SweepResult> {
    return this.job.runNow((run) => this.sweepAll(run, beforePurge));
  }

  /** What the next sweep would purge for a tenant, per class, purging nothing. */
  async preview(tenantId: string): Promise<RetentionClassReport[]> {
    const now = this.clock.now();
    const reports: RetentionClassReport[] = [];
    for (const purger of this.purgers) {
      const rule = await this.rules.ruleOf(tenantId, purger.retentionClass);
      const blockedBy = blockOf(rule);
      const groups = blockedBy ? [] : await purger.due(tenantId, cutoffOf(rule, now), REPORT_LIMIT);
      reports.push({
        class: purger.retentionClass,
        owner: RETENTION_CLASS_OWNERS[purger.retentionClass],
        purgeEnabled: rule.purgeEnabled,
        legalHoldEnabled: rule.legalHoldEnabled,
        minDays: rule.minDays,
        maxDays: rule.maxDays,
        blockedBy,
        records: groups.reduce((n, g) => n + g.recordIds.length, 0),
        requestIds: [...new Set(groups.map((g) => g.requestId ?? 'tenant'))].sort(),
      });
    }
    return reports;
  }

  private async sweepAll(run: JobRun, beforePurge?: BeforePurge): Promise<SweepResult> {
    const result: SweepResult = {};
    const pacer = run.pacer();
    for (const purger of this.purgers) {
      const counts = { groups: 0, records: 0 };
      result[purger.retentionClass] = counts;
      for (const rule of await this.rules.purgingTenants(purger.retentionClass)) {
        if (pacer.stopping) return result;
        try {
          await this.sweepTenant(purger, rule.tenantId, counts, pacer, beforePurge);
        } catch (e) {
          Metrics.get().retentionSweepFailures.inc({ service: RETENTION_CLASS_OWNERS[purger.retentionClass], class: purger.retentionClass });
          this.log.error(`retention sweep of ${purger.retentionClass} for tenant ${rule.tenantId} failed: ${(e as Error).message}`);
        }
      }
      if (counts.records > 0) this.log.log(`retention purged ${counts.records} ${purger.retentionClass} record(s) in ${counts.groups} group(s)`);
    }
    return result;
  }

  private async sweepTenant(purger: RetentionClassPurger, tenantId: string, counts: { groups: number; records: number }, pacer: BatchPacer, beforePurge?: BeforePurge): Promise<void> {
    for (;;) {
      // The cutoff of the page; each purge recomputes it from the policy it locks.
      const page = await purger.due(tenantId, cutoffOf(await this.rules.ruleOf(tenantId, purger.retentionClass), this.clock.now()), this.settings.batchSize);
      let purgedInPage = 0;
      for (const group of page) {
        if (!(await pacer.pause())) return;
        await beforePurge?.(tenantId, group);
        const outcome = await this.purgeGroup(purger, tenantId, group);
        if (outcome === 'stopped') return;
        if (outcome) {
          purgedInPage++;
          counts.groups++;
          counts.records += outcome.purged.recordIds.length;
        }
      }
      // A short page was the last; a page another replica took entirely would come back the same: stop.
      if (page.length < this.settings.batchSize || purgedInPage === 0) return;
    }
  }

  /** One group in one transaction, under the tenant's policy as it stands now. */
  private async purgeGroup(purger: RetentionClassPurger, tenantId: string, group: RetentionGroup): Promise<RetentionPurge | null | 'stopped'> {
    const cls = purger.retentionClass;
    const outcome = await this.uow.run(async (tx): Promise<RetentionPurge | null | 'stopped'> => {
      const rule = await this.rules.lockForPurge(tx, tenantId, cls);
      if (blockOf(rule)) return 'stopped';
      const now = this.clock.now();
      const done = await purger.purge(tx, tenantId, group, cutoffOf(rule, now));
      if (!done) return null;
      const { purged } = done;
      await this.outbox.record(tx, {
        type: RetentionEventTypes.purged,
        subject: purged.requestId ?? tenantSubject(tenantId),
        tenantId,
        data: {
          tenantId,
          requestId: purged.requestId,
          workspaceId: purged.workspaceId,
          class: cls,
          recordIds: purged.recordIds,
          records: purged.recordIds.length,
          files: purged.files,
          startedAt: purged.startedAt.toISOString(),
          maxDays: rule.maxDays,
          minDays: rule.minDays,
          occurredAt: now.toISOString(),
        } satisfies RetentionPurgedV1,
      });
      return done;
    });
    if (outcome && outcome !== 'stopped') {
      Metrics.get().retentionPurged.inc({ service: RETENTION_CLASS_OWNERS[cls], class: cls }, outcome.purged.recordIds.length);
      await outcome.afterCommit?.().catch((e: unknown) => this.log.warn(`retention: removing the files of purged ${cls} records failed: ${(e as Error).message}`));
    }
    return outcome;
  }
}
