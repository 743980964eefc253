import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { NotificationAudience, NotificationKind, NotificationStatus } from '@dsar/contracts';

/** The owner of a data system as its registration names it: an email address, a Slack channel, or both. */
export interface OwnerAddress {
  email?: string;
  slackChannel?: string;
}

/**
 * A message to send because something happened (retention class
 * `notification_log`): its kind, who it is for, and the facts its template
 * needs that carry no personal data. Addresses and words are read from the
 * owning service when it is sent, so data purged there is never sent later;
 * only the owner of a data system's address is kept here (`recipient`).
 */
@Entity({ name: 'notifications' })
export class NotificationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  /** Null for tenant-wide operator messages (the daily digest, a parked message of no request). */
  @Column('uuid', { name: 'request_id', nullable: true })
  requestId: string | null;

  @Column('text')
  kind: NotificationKind;

  @Column('text')
  audience: NotificationAudience;

  /** What caused it, unique per kind and audience: a domain event id, `dlq:<topic>:<partition>:<offset>`, `digest:<tenant>:<date>`, `failed:<notification id>`. */
  @Column('text', { name: 'source_key' })
  sourceKey: string;

  /** The domain event it is about, when there is one. */
  @Column('uuid', { name: 'source_event_id', nullable: true })
  sourceEventId: string | null;

  @Column('jsonb')
  facts: Record<string, unknown>;

  /**
   * Where a message to the owner of a data system goes (audience `owner`): the address its registration gave, as
   * the task event carried it. A staff contact, purged with the request's notifications; null for other audiences,
   * whose addresses are read when the message is sent.
   */
  @Column('jsonb', { nullable: true })
  recipient: OwnerAddress | null;

  @Column('text')
  status: NotificationStatus;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
