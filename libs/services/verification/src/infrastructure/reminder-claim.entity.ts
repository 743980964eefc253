import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The sweep's claim that a case's reminder of one day was handled: inserting it is the claim, so each reminder goes out once. */
@Entity({ name: 'verification_reminders' })
export class ReminderClaimEntity {
  @PrimaryColumn('uuid', { name: 'case_id' })
  caseId: string;

  @PrimaryColumn('integer')
  day: number;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('timestamptz', { name: 'claimed_at' })
  claimedAt: Date;

  /** The reminder emitted; null when a later reminder of the same sweep made this one moot. */
  @Column('uuid', { name: 'event_id', nullable: true })
  eventId: string | null;
}
