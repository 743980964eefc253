import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The deadline monitor's claim that an alert was handled: one row per request,
 * deadline, threshold and due date. Inserting it is the claim, so two replicas
 * scanning at once emit each alert once.
 */
@Entity({ name: 'request_deadline_alerts' })
export class DeadlineAlertEntity {
  @PrimaryColumn('uuid', { name: 'request_id' })
  requestId: string;

  /** `response` or `acknowledgement`. */
  @PrimaryColumn('text')
  deadline: string;

  /** Days before the due date (`7`, `2`, …), or `0` for the breach. */
  @PrimaryColumn('integer', { name: 'threshold_days' })
  thresholdDays: number;

  @PrimaryColumn('timestamptz', { name: 'due_at' })
  dueAt: Date;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('timestamptz', { name: 'claimed_at' })
  claimedAt: Date;

  /** The event emitted; null when a more urgent alert of the same scan made this one moot. */
  @Column('uuid', { name: 'event_id', nullable: true })
  eventId: string | null;
}
