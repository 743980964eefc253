import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isUuid, type NotificationHistory, type NotificationKind, type NotificationReplayed, NotificationEventTypes, type NotificationReplayedV1, type Principal } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { NotificationAttemptEntity } from '../infrastructure/notification-attempt.entity';
import { NotificationEntity } from '../infrastructure/notification.entity';
import { Dispatcher } from './dispatcher';
import { NO_ADDRESS_ERROR } from './message-composer';

/**
 * A request's notifications with their attempts, and their replay. The
 * request is read from its owner first: another tenant's (or workspace's) is
 * a 404 there and here.
 */
@Injectable()
export class NotificationHistoryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly lifecycle: LifecycleClient,
    private readonly outbox: Outbox,
    private readonly dispatcher: Dispatcher,
  ) {}

  async history(principal: Principal, requestId: string): Promise<NotificationHistory> {
    const detail = await this.visibleRequest(principal, requestId);
    const db = this.uow.dataSource.manager;
    const rows = await db.find(NotificationEntity, { where: { tenantId: detail.tenantId, requestId: detail.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    const attempts = rows.length === 0 ? [] : await db.find(NotificationAttemptEntity, { where: rows.map((r) => ({ notificationId: r.id })), order: { attempt: 'ASC' } });
    return {
      requestId: detail.id,
      events: rows.map((r) => ({
        eventId: r.id,
        eventType: r.kind,
        audience: r.audience,
        status: r.status,
        createdAt: r.createdAt.toISOString(),
        attempts: attempts
          .filter((a) => a.notificationId === r.id)
          .map((a) => ({ attempt: a.attempt, channel: a.channel, destination: a.destination, status: a.status, createdAt: a.createdAt.toISOString(), ...(a.error ? { error: a.error } : {}) })),
      })),
    };
  }

  /** Sends the notification again on each of its channels, as new attempts. */
  async replay(principal: Principal, requestId: string, eventId: string): Promise<NotificationReplayed> {
    const detail = await this.visibleRequest(principal, requestId);
    await this.uow.run(async (tx) => {
      const n = isUuid(eventId) ? await tx.findOne(NotificationEntity, { where: { id: eventId, tenantId: detail.tenantId, requestId: detail.id }, lock: { mode: 'pessimistic_write' } }) : null;
      if (!n) throw new ProblemError('RESOURCE_NOT_FOUND', `Request ${detail.id} has no notification ${eventId}.`);
      const now = this.clock.now();
      await this.makeDue(tx, n.id, now);
      await this.outbox.record(tx, {
        type: NotificationEventTypes.replayed,
        subject: detail.id,
        tenantId: detail.tenantId,
        data: {
          requestId: detail.id,
          tenantId: detail.tenantId,
          workspaceId: detail.workspaceId,
          notificationId: n.id,
          kind: n.kind,
          audience: n.audience,
          occurredAt: now.toISOString(),
          actor: principal.id,
        } satisfies NotificationReplayedV1,
      });
      this.dispatcher.kickAfterCommit();
    });
    return { eventId, status: 'replayed' };
  }

  /**
   * The request's contact details were corrected (`dsar.request.requestor_replaced.v1` with `emailKnown`): each of its
   * notifications to the data subject that failed because the request had no email address is due again, once per
   * correction, as a replay by the one who corrected them (`cause: contact_corrected`). Runs in the caller's (the
   * inbox's) transaction; returns the ids made due.
   */
  async resendForCorrectedContact(tx: EntityManager, correction: { requestId: string; tenantId: string; workspaceId: string | null; actor: string }): Promise<string[]> {
    const notifications = qualifiedTable(this.uow.dataSource, 'notifications');
    const attempts = qualifiedTable(this.uow.dataSource, 'notification_attempts');
    const failed: Array<{ id: string; kind: NotificationKind }> = await tx.query(
      `SELECT n.id, n.kind FROM ${notifications} n
        WHERE n.tenant_id = $1 AND n.request_id = $2 AND n.audience = 'subject' AND n.status = 'failed'
          AND (SELECT a.error FROM ${attempts} a WHERE a.notification_id = n.id ORDER BY a.attempt DESC LIMIT 1) = $3
        ORDER BY n.created_at, n.id
        FOR UPDATE OF n`,
      [correction.tenantId, correction.requestId, NO_ADDRESS_ERROR],
    );
    const now = this.clock.now();
    for (const n of failed) {
      await this.makeDue(tx, n.id, now);
      await this.outbox.record(tx, {
        type: NotificationEventTypes.replayed,
        subject: correction.requestId,
        tenantId: correction.tenantId,
        data: {
          requestId: correction.requestId,
          tenantId: correction.tenantId,
          workspaceId: correction.workspaceId,
          notificationId: n.id,
          kind: n.kind,
          audience: 'subject',
          occurredAt: now.toISOString(),
          actor: correction.actor,
          cause: 'contact_corrected',
        } satisfies NotificationReplayedV1,
      });
    }
    if (failed.length > 0) this.dispatcher.kickAfterCommit();
    return failed.map((n) => n.id);
  }

  /** Every send of the notification is due now, from its first try again. */
  private async makeDue(tx: EntityManager, notificationId: string, now: Date): Promise<void> {
    await tx.query(`UPDATE ${qualifiedTable(this.uow.dataSource, 'notification_sends')} SET status = 'pending', tries = 0, next_attempt_at = now(), claimed_until = NULL WHERE notification_id = $1`, [
      notificationId,
    ]);
    await tx.update(NotificationEntity, { id: notificationId }, { status: 'pending', updatedAt: now });
  }

  private visibleRequest(principal: Principal, id: string) {
    if (!isUuid(id)) return Promise.reject(new ProblemError('RESOURCE_NOT_FOUND', `Request ${id} does not exist.`));
    return this.lifecycle.request(principal, id);
  }
}
