import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { NotificationChannel, NotificationStatus } from '@dsar/contracts';

/**
 * The durable state of one notification on one channel: what the dispatcher
 * claims, tries and schedules again. A restart loses nothing: a claim is a
 * lease on the database's clock, and a crashed sender's lease lapses.
 */
@Entity({ name: 'notification_sends' })
export class NotificationSendEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'notification_id' })
  notificationId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text')
  channel: NotificationChannel;

  @Column('text')
  status: NotificationStatus;

  /** Tries in the current round (a replay starts a new round). */
  @Column('integer')
  tries: number;

  @Column('timestamptz', { name: 'next_attempt_at' })
  nextAttemptAt: Date;

  @Column('timestamptz', { name: 'claimed_until', nullable: true })
  claimedUntil: Date | null;
}
