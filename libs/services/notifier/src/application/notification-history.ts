import { Injectable } from '@nestjs/common';
import { isUuid, type NotificationHistory, type NotificationReplayed, NotificationEventTypes, type NotificationReplayedV1, type Principal } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { LifecycleClient } from '@dsar/platform/http';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { NotificationAttemptEntity } from '../infrastructure/notification-attempt.entity';
import { NotificationEntity } from '../infrastructure/notification.entity';
import { Dispatcher } from './dispatcher';

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
      await tx.query(
        `UPDATE ${qualifiedTable(this.uow.dataSource, 'notification_sends')} SET status = 'pending', tries = 0, next_attempt_at = now(), claimed_until = NULL WHERE notification_id = $1`,
        [n.id],
      );
      await tx.update(NotificationEntity, { id: n.id }, { status: 'pending', updatedAt: now });
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

  private visibleRequest(principal: Principal, id: string) {
    if (!isUuid(id)) return Promise.reject(new ProblemError('RESOURCE_NOT_FOUND', `Request ${id} does not exist.`));
    return this.lifecycle.request(principal, id);
  }
}
