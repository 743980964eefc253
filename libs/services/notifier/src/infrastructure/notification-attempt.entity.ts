import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { NotificationChannel } from '@dsar/contracts';

/** One try to send a notification on a channel; the destination is kept masked. */
@Entity({ name: 'notification_attempts' })
export class NotificationAttemptEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  seq: string;

  @Column('uuid', { name: 'notification_id' })
  notificationId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id', nullable: true })
  requestId: string | null;

  @Column('integer')
  attempt: number;

  @Column('text')
  channel: NotificationChannel;

  @Column('text')
  destination: string;

  @Column('text')
  status: 'delivered' | 'retrying' | 'failed';

  @Column('text', { nullable: true })
  error: string | null;

  /** The SMTP server's or Slack's id of the message (Message-ID, ts, file name). */
  @Column('text', { name: 'provider_id', nullable: true })
  providerId: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
