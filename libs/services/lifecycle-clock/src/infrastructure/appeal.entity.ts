import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AppealDecision } from '@dsar/contracts';

/** An appeal against a request's outcome, and its decision. */
@Entity({ name: 'request_appeals' })
export class AppealEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text')
  message: string;

  @Column('text', { nullable: true })
  grounds: string | null;

  @Column('text')
  status: 'appeal_submitted' | 'appeal_decided';

  /** The request's status when the appeal was filed (the outcome appealed against). */
  @Column('text', { name: 'appealed_status' })
  appealedStatus: string;

  @Column('text', { name: 'submitted_by' })
  submittedBy: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  /** When it must be decided, on the pack's appeal clock. */
  @Column('timestamptz', { name: 'due_at' })
  dueAt: Date;

  @Column('text', { nullable: true })
  decision: AppealDecision | null;

  @Column('text', { nullable: true })
  explanation: string | null;

  @Column('text', { name: 'decided_by', nullable: true })
  decidedBy: string | null;

  @Column('timestamptz', { name: 'decided_at', nullable: true })
  decidedAt: Date | null;
}
