import type { EntityManager } from 'typeorm';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type Principal, type VerificationReminderDueV1, VerificationEventTypes } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type BatchPacer, type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { reachedReminderDays } from '../domain/case-schedule';
import { ReminderClaimEntity } from '../infrastructure/reminder-claim.entity';
import { VerificationCaseEntity } from '../infrastructure/verification-case.entity';
import { VERIFICATION_SETTINGS, type VerificationSettings } from '../verification-settings';
import { VerificationCases } from './verification-cases';

/** Who acts when the sweep reminds or expires. */
export const SYSTEM_ACTOR = 'system:verification';
/** How long one replica holds a case's expiry before another may retry it (a crashed sweep's claim lapses). */
const EXPIRY_LEASE_SECONDS = 60;

/**
 * Reminders and expiry of pending verification cases, on the claimed-alert
 * pattern of the deadline monitor, safe with any number of replicas:
 * - a reminder is claimed by inserting its row (case, day) in the same
 *   transaction as its event, so each goes out once; when a sweep finds
 *   several days reached at once only the latest is sent;
 * - an expiry is claimed by a short lease on the case, then lifecycle-clock
 *   refuses the request (identity_not_verified, with a key derived from the
 *   case so a retry replays), then the case records `expired` with its event
 *   only if it is still pending. No transaction waits on lifecycle-clock.
 * Each page and each case is a batch that yields to the requests (ADR 0043).
 */
@Injectable()
export class VerificationMonitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('VerificationMonitor');
  private readonly job: PeriodicJob<{ reminders: number; expired: number }>;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly cases: VerificationCases,
    private readonly lifecycle: LifecycleClient,
    private readonly clock: Clock,
    @Inject(VERIFICATION_SETTINGS) private readonly settings: VerificationSettings,
  ) {
    this.job = new PeriodicJob({ service: 'verification', name: 'verification-sweep', intervalMs: settings.monitorIntervalMs, log: this.log }, (run) => this.sweepAll(run));
  }

  /** The transaction the caller is in (an event handler's inbox transaction), else the data source: in embedded mode one database session serves every service, so a read must never wait outside the transaction that holds it. */
  private get db(): EntityManager {
    return this.uow.manager;
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
  }

  /** One sweep: reminders, then expiries. Returns the events emitted. Overlapping calls wait for the sweep under way. */
  sweep(): Promise<{ reminders: number; expired: number }> {
    return this.job.runNow();
  }

  private async sweepAll(run: JobRun): Promise<{ reminders: number; expired: number }> {
    const now = this.clock.now();
    const pacer = run.pacer();
    let reminders = 0;
    for (const id of await this.pendingIds(`jsonb_array_length(c.reminder_days) > 0`, now, pacer)) {
      if (!(await pacer.pause())) return { reminders, expired: 0 };
      reminders += await this.remind(id, now);
    }
    let expired = 0;
    for (const id of await this.pendingIds(`c.expires_at <= $1::timestamptz`, now, pacer)) {
      if (!(await pacer.pause())) break;
      expired += await this.expire(id);
    }
    if (reminders + expired > 0) this.log.log(`${reminders} verification reminder(s), ${expired} expiry(ies)`);
    return { reminders, expired };
  }

  /** Ids of pending cases matching a condition, paged by (requested_at, id) so that long lists do not hold one query. */
  private async pendingIds(condition: string, now: Date, pacer: BatchPacer): Promise<string[]> {
    const ids: string[] = [];
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const rows: Array<{ id: string; requested_at: Date }> = await this.db.query(
        `SELECT c.id, c.requested_at FROM ${qualifiedTable(this.uow.dataSource, 'verification_cases')} c
          WHERE c.status = 'pending' AND c.requested_at <= $1::timestamptz AND ${condition}
            AND ($3::timestamptz IS NULL OR (c.requested_at, c.id) > ($3::timestamptz, $4::uuid))
          ORDER BY c.requested_at, c.id LIMIT $2`,
        [now, this.settings.batchSize, after?.at ?? null, after?.id ?? null],
      );
      ids.push(...rows.map((r) => r.id));
      if (rows.length < this.settings.batchSize) return ids;
      after = { at: new Date(rows[rows.length - 1].requested_at), id: rows[rows.length - 1].id };
      await pacer.pause();
    }
  }

  /** Claims and emits the latest reminder a case has reached, if not claimed yet; returns 1 when an event went out. */
  private async remind(id: string, now: Date): Promise<number> {
    return this.uow.run(async (tx) => {
      const row = await tx.findOne(VerificationCaseEntity, { where: { id }, lock: { mode: 'pessimistic_write', onLocked: 'skip_locked' } });
      if (!row || row.status !== 'pending') return 0;
      // A case past its expiry is expired, not reminded.
      if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 0;
      const reached = reachedReminderDays(row.reminderDays, row.requestedAt, now);
      if (reached.length === 0) return 0;
      const claimed: Array<{ day: number }> = await tx.query(
        `INSERT INTO ${qualifiedTable(this.uow.dataSource, 'verification_reminders')} (case_id, day, tenant_id, claimed_at)
         SELECT $1, d, $2, $3 FROM unnest($4::int[]) AS d ON CONFLICT DO NOTHING RETURNING day`,
        [row.id, row.tenantId, now, reached],
      );
      const latest = reached[reached.length - 1];
      // Days skipped (a sweep that was down) are claimed silently: a late reminder of an earlier day says nothing new.
      if (!claimed.some((c) => c.day === latest)) return 0;
      const event = await this.cases.record(tx, row, VerificationEventTypes.reminderDue, {
        ...this.cases.caseFacts(row),
        actor: SYSTEM_ACTOR,
        occurredAt: now.toISOString(),
        day: latest,
        requestedAt: row.requestedAt.toISOString(),
        expiresAt: row.expiresAt?.toISOString() ?? null,
      } satisfies VerificationReminderDueV1);
      await tx.update(ReminderClaimEntity, { caseId: row.id, day: latest }, { eventId: event.id });
      return 1;
    });
  }

  /** Expires one case past its expiry, once across replicas; returns 1 when this call expired it. */
  private async expire(id: string): Promise<number> {
    // The lease runs on the database's own time: it is a mechanism, not a domain fact (ADR 0019).
    const claimed = await this.uow.run(async (tx) => {
      const result = await tx
        .createQueryBuilder()
        .update(VerificationCaseEntity)
        .set({ expiryClaimedUntil: () => `now() + interval '${EXPIRY_LEASE_SECONDS} seconds'` })
        .where(`id = :id AND status = 'pending' AND (expiry_claimed_until IS NULL OR expiry_claimed_until < now())`, { id })
        .execute();
      return result.affected ? tx.findOne(VerificationCaseEntity, { where: { id } }) : null;
    });
    if (!claimed || !claimed.expiresAt) return 0;
    const system = systemPrincipal(claimed);
    const decision = { outcome: 'expired' as const, by: SYSTEM_ACTOR, reason: 'no_response' as const, note: null };
    await this.cases.intend(claimed, decision);
    try {
      await this.lifecycle.transition(system, claimed.requestId, 'verification-rejected', `verification:${claimed.id}:expire`);
    } catch (e) {
      if (e instanceof ProblemError && (e.definition.name === 'LIFECYCLE_TRANSITION_DISALLOWED' || e.definition.name === 'RESOURCE_NOT_FOUND')) {
        // The request left verification another way (closed, decided): the case ends without an expiry.
        const detail = e.definition.name === 'RESOURCE_NOT_FOUND' ? undefined : await this.lifecycle.request(system, claimed.requestId).catch(() => undefined);
        await this.cases.cancel(claimed.requestId, detail?.status ?? 'unknown', SYSTEM_ACTOR);
        return 0;
      }
      throw e;
    }
    // Recorded here, or already from the request's event (RequestOutcomeHandler): either way this sweep expired it.
    await this.cases.decide(claimed, decision);
    return 1;
  }
}

/** The sweep acts for the case's tenant (and workspace) as the verification service itself. */
export function systemPrincipal(row: VerificationCaseEntity): Principal {
  return { id: SYSTEM_ACTOR, tenantId: row.tenantId, ...(row.workspaceId ? { workspaceId: row.workspaceId } : {}), roles: ['operator'] };
}
