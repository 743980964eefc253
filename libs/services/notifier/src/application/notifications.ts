import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NotificationAudience, NotificationChannel, NotificationKind } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { NotificationEntity, type OwnerAddress } from '../infrastructure/notification.entity';
import { NotificationSendEntity } from '../infrastructure/notification-send.entity';
import { NOTIFIER_SETTINGS, type NotifierSettings, operatorSettingsOf } from '../notifier-settings';

/** What causes a notification and what its template may use. */
export interface NotificationDraft {
  tenantId: string;
  workspaceId: string | null;
  requestId: string | null;
  kind: NotificationKind;
  audience: NotificationAudience;
  sourceKey: string;
  sourceEventId: string | null;
  /** Identifiers, codes and dates only: never addresses, names or words. */
  facts: Record<string, unknown>;
  /** For audience `owner` only, and required there: the data system owner's address, as the task event gave it. */
  recipient?: OwnerAddress;
}

/**
 * Records notifications: one row per cause, kind and audience (a cause
 * delivered twice records nothing new), with one send per channel it goes
 * out on, due at once. The data subject is written to by email; operators
 * on the channels their tenant has (none: nothing is recorded for them); the
 * owner of a data system at the email address and Slack channel the task
 * event gave (none: nothing is recorded).
 */
@Injectable()
export class Notifications {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    @Inject(NOTIFIER_SETTINGS) private readonly settings: NotifierSettings,
  ) {}

  /** The channels a notification for this audience of this tenant goes out on; an owner's, those of the address given. */
  channelsFor(tenantId: string, audience: NotificationAudience, recipient?: OwnerAddress): NotificationChannel[] {
    if (audience === 'subject') return ['email'];
    if (audience === 'owner') return [...(recipient?.email ? (['email'] as const) : []), ...(recipient?.slackChannel ? (['chat'] as const) : [])];
    const operators = operatorSettingsOf(this.settings, tenantId);
    return [...(operators.emails.length > 0 ? (['email'] as const) : []), ...(operators.slackChannel ? (['chat'] as const) : [])];
  }

  /** Records the notification in the caller's transaction; returns its id, or null when it exists already or has nowhere to go. */
  async record(tx: EntityManager, draft: NotificationDraft): Promise<string | null> {
    const channels = this.channelsFor(draft.tenantId, draft.audience, draft.recipient);
    if (channels.length === 0) return null;
    const now = this.clock.now();
    const id = randomUUID();
    const inserted: unknown[] = await tx.query(
      `INSERT INTO ${qualifiedTable(this.uow.dataSource, 'notifications')}
         (id, tenant_id, workspace_id, request_id, kind, audience, source_key, source_event_id, facts, recipient, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'pending', $11, $11)
       ON CONFLICT (tenant_id, source_key, kind, audience) DO NOTHING RETURNING id`,
      [
        id,
        draft.tenantId,
        draft.workspaceId,
        draft.requestId,
        draft.kind,
        draft.audience,
        draft.sourceKey,
        draft.sourceEventId,
        JSON.stringify(draft.facts),
        draft.audience === 'owner' ? JSON.stringify(ownerAddress(draft.recipient)) : null,
        now,
      ],
    );
    if (inserted.length === 0) return null;
    for (const channel of channels) {
      // Due now on the database's clock: scheduling is a mechanism, not a domain fact (ADR 0019).
      await tx
        .createQueryBuilder()
        .insert()
        .into(NotificationSendEntity)
        .values({ id: randomUUID(), notificationId: id, tenantId: draft.tenantId, channel, status: 'pending', tries: 0, nextAttemptAt: () => 'now()', claimedUntil: null })
        .execute();
    }
    return id;
  }

  /** Records it in a transaction of its own. */
  recordNow(draft: NotificationDraft): Promise<string | null> {
    return this.uow.run((tx) => this.record(tx, draft));
  }

  find(tx: EntityManager, id: string): Promise<NotificationEntity | null> {
    return tx.findOne(NotificationEntity, { where: { id } });
  }
}

/** The address kept for an owner: its two fields alone, whatever else the event's object held. */
function ownerAddress(recipient: OwnerAddress | undefined): OwnerAddress {
  return { ...(recipient?.email ? { email: recipient.email } : {}), ...(recipient?.slackChannel ? { slackChannel: recipient.slackChannel } : {}) };
}
