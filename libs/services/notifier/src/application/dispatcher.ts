import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type EntityManager, In } from 'typeorm';
import { type NotificationDeliveredV1, NotificationEventTypes, type NotificationFailedV1, type NotificationStatus } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { type JobRun, PeriodicJob } from '@dsar/platform/scheduling';
import { type ChatChannel, type EmailChannel, type SendOutcome } from '../infrastructure/channels';
import { NotificationEntity } from '../infrastructure/notification.entity';
import { NotificationSendEntity } from '../infrastructure/notification-send.entity';
import { NOTIFIER_SETTINGS, type NotifierSettings } from '../notifier-settings';
import { type Composed, MessageComposer } from './message-composer';
import { Notifications } from './notifications';
import { retryDelayMs } from './retry-schedule';

/** The channels the notifier sends on (SMTP or .eml files; Slack or the log). */
export const NOTIFIER_CHANNELS = Symbol('NOTIFIER_CHANNELS');
export interface NotifierChannels {
  email: EmailChannel;
  chat: ChatChannel;
}

/** How long a replica holds a claimed send before another may take it over (a crashed sender's claim lapses). */
const CLAIM_LEASE_SECONDS = 60;

/**
 * Sends what is due, from durable state, with any number of replicas: a round
 * claims due sends with a lease (FOR UPDATE SKIP LOCKED, on the database's
 * clock), composes and sends each outside any transaction, and records the
 * attempt, the send's next state and the notification's status in one short
 * transaction with its event. A transient failure is tried again later with
 * exponential backoff and jitter; a permanent one, or the last try, fails the
 * notification and alerts operators. A crash between a send and its record
 * sends it again when the lease lapses (same Message-ID). Each send is a
 * batch that yields to the requests, without resting: what it sends is the
 * requests' own news, and must keep up with them (ADR 0043).
 */
@Injectable()
export class Dispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly log = new Logger('NotificationDispatcher');
  private readonly job: PeriodicJob<number>;
  private noted = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly outbox: Outbox,
    private readonly composer: MessageComposer,
    private readonly notifications: Notifications,
    @Inject(NOTIFIER_CHANNELS) private readonly channels: NotifierChannels,
    @Inject(NOTIFIER_SETTINGS) private readonly settings: NotifierSettings,
  ) {
    // A kick during a round asks for one more: what it was kicked for may have been due after the round's claim.
    this.job = new PeriodicJob({ service: 'notifier', name: 'notification-dispatch', intervalMs: settings.dispatchIntervalMs, whenBusy: 'follow', log: this.log }, (run) => this.rounds(run));
    uow.afterCommit(() => {
      if (!this.noted) return;
      this.noted = false;
      this.kick();
    });
  }

  onApplicationBootstrap(): void {
    this.job.start({ runAtStart: true });
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
    await Promise.all([this.channels.email.close(), this.channels.chat.close()]).catch(() => undefined);
  }

  /** Asks for a round once the current transaction commits (new notifications go out at once). */
  kickAfterCommit(): void {
    this.noted = true;
  }

  /** Starts a round now, or another one right after the round under way. */
  kick(): void {
    this.job.trigger();
  }

  /** Runs rounds until nothing is due; returns how many sends were tried (tests and tools call it). */
  drain(): Promise<number> {
    return this.job.runNow();
  }

  private async rounds(run: JobRun): Promise<number> {
    let tried = 0;
    const pacer = run.pacer({ share: 1 });
    do {
      run.takeFollowUp();
      for (;;) {
        const claimed = await this.claim();
        for (const send of claimed) {
          if (!(await pacer.pause())) return tried;
          await this.process(send);
          tried++;
        }
        if (claimed.length < this.settings.batchSize) break;
      }
    } while (run.takeFollowUp() && !run.stopping);
    return tried;
  }

  private async claim(): Promise<NotificationSendEntity[]> {
    const table = qualifiedTable(this.uow.dataSource, 'notification_sends');
    return this.uow.run(async (tx) => {
      // A bare UPDATE … RETURNING answers [rows, count] through TypeORM: the CTE makes it a SELECT of the claimed ids.
      const rows: Array<{ id: string }> = await tx.query(
        `WITH claimed AS (
           UPDATE ${table} SET claimed_until = now() + interval '${CLAIM_LEASE_SECONDS} seconds'
            WHERE id IN (SELECT id FROM ${table}
                          WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now()
                            AND (claimed_until IS NULL OR claimed_until < now())
                          ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING id)
         SELECT id FROM claimed`,
        [this.settings.batchSize],
      );
      if (rows.length === 0) return [];
      return tx.getRepository(NotificationSendEntity).find({ where: { id: In(rows.map((r) => r.id)) }, order: { nextAttemptAt: 'ASC' } });
    });
  }

  private async process(send: NotificationSendEntity): Promise<void> {
    const n = await this.uow.dataSource.manager.findOne(NotificationEntity, { where: { id: send.notificationId } });
    if (!n) return; // purged meanwhile: its sends went with it
    let composed: Composed;
    try {
      composed = await this.composer.compose(n, send.channel, send.id);
    } catch (e) {
      composed = { ok: false, transient: true, error: `composing failed: ${(e as Error).message}`.slice(0, 300), destination: '(unresolved)' };
    }
    let outcome: SendOutcome;
    if (!composed.ok) outcome = composed;
    else if (composed.email) outcome = await this.channels.email.send(composed.email);
    else if (composed.chat) outcome = await this.channels.chat.send(composed.chat);
    else outcome = { ok: false, transient: false, error: `nothing to send on ${send.channel}` };
    await this.record(send, n, composed.destination, outcome);
  }

  /** The try, the send's next state, the notification's status and its event, in one transaction. */
  private async record(send: NotificationSendEntity, n: NotificationEntity, destination: string, outcome: SendOutcome): Promise<void> {
    const tries = send.tries + 1;
    const status: 'delivered' | 'retrying' | 'failed' = outcome.ok ? 'delivered' : outcome.transient && tries < this.settings.retry.maxAttempts ? 'retrying' : 'failed';
    const delayMs = !outcome.ok && status === 'retrying' ? retryDelayMs(tries, this.settings.retry, outcome.retryAfterMs) : 0;
    await this.uow.run(async (tx) => {
      const now = this.clock.now();
      const attempts = qualifiedTable(this.uow.dataSource, 'notification_attempts');
      const [{ attempt }]: Array<{ attempt: number }> = await tx.query(
        `INSERT INTO ${attempts} (notification_id, tenant_id, request_id, attempt, channel, destination, status, error, provider_id, created_at)
         SELECT $1, $2, $3, COALESCE(MAX(attempt), 0) + 1, $4, $5, $6, $7, $8, $9 FROM ${attempts} WHERE notification_id = $1
         RETURNING attempt`,
        [n.id, n.tenantId, n.requestId, send.channel, destination, status, outcome.ok ? null : outcome.error, outcome.ok ? (outcome.providerId ?? null) : null, now],
      );
      await tx.query(
        `UPDATE ${qualifiedTable(this.uow.dataSource, 'notification_sends')}
            SET status = $2, tries = $3, claimed_until = NULL, next_attempt_at = now() + ($4::bigint * interval '1 millisecond')
          WHERE id = $1`,
        [send.id, status, tries, delayMs],
      );
      const overall = await this.settle(tx, n, now);
      if (n.requestId && status === 'delivered') {
        await this.emit(tx, n, NotificationEventTypes.delivered, {
          channel: send.channel,
          attempt,
          sourceEventId: n.sourceEventId,
          occurredAt: now.toISOString(),
        } satisfies Partial<NotificationDeliveredV1>);
      }
      if (status === 'failed') {
        if (n.requestId)
          await this.emit(tx, n, NotificationEventTypes.failed, {
            channel: send.channel,
            attempt,
            permanent: !outcome.ok && !outcome.transient,
            occurredAt: now.toISOString(),
          } satisfies Partial<NotificationFailedV1>);
        // Operators hear of every failure but their own alerts' (no alert about an alert).
        if (n.kind !== 'notification_failed') {
          const alerted = await this.notifications.record(tx, {
            tenantId: n.tenantId,
            workspaceId: n.workspaceId,
            requestId: n.requestId,
            kind: 'notification_failed',
            audience: 'operators',
            sourceKey: `failed:${n.id}:${attempt}`,
            sourceEventId: null,
            facts: { failedKind: n.kind, failedChannel: send.channel, failedDestination: destination, error: outcome.ok ? '' : outcome.error, notificationId: n.id },
          });
          if (alerted) this.kickAfterCommit();
        }
      }
      if (status !== 'delivered') this.log.warn(`notification ${n.id} (${n.kind}) on ${send.channel}: try ${tries} ${status}${outcome.ok ? '' : `: ${outcome.error}`}`);
      return overall;
    });
  }

  /** The notification's status from its sends: failed if one failed, else retrying, pending, delivered. */
  private async settle(tx: EntityManager, n: NotificationEntity, now: Date): Promise<NotificationStatus> {
    const sends = await tx.find(NotificationSendEntity, { where: { notificationId: n.id } });
    const has = (s: NotificationStatus) => sends.some((x) => x.status === s);
    const status: NotificationStatus = has('failed') ? 'failed' : has('retrying') ? 'retrying' : has('pending') ? 'pending' : 'delivered';
    await tx.update(NotificationEntity, { id: n.id }, { status, updatedAt: now });
    return status;
  }

  private emit(tx: EntityManager, n: NotificationEntity, type: string, data: Record<string, unknown>) {
    return this.outbox.record(tx, {
      type,
      subject: n.requestId as string,
      tenantId: n.tenantId,
      data: { requestId: n.requestId, tenantId: n.tenantId, workspaceId: n.workspaceId, notificationId: n.id, kind: n.kind, audience: n.audience, ...data },
    });
  }
}
