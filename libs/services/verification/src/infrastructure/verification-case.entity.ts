import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { VerificationCaseStatus, VerificationLevel, VerificationMethod, VerificationRejectionReason } from '@dsar/contracts';

/** A decision on its way: the case's outcome once lifecycle-clock has accepted it. */
export interface PendingDecision {
  outcome: 'approved' | 'rejected' | 'expired';
  by: string;
  method?: VerificationMethod | null;
  reason?: VerificationRejectionReason | null;
  note?: string | null;
}

/** One verification case of a request, its schedule and its decision. At most one per request is pending. */
@Entity({ name: 'verification_cases' })
export class VerificationCaseEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  /** 1 for the request's first case, 2 for the next…: part of the key passed to lifecycle-clock. */
  @Column('integer')
  seq: number;

  @Column('text')
  status: VerificationCaseStatus;

  @Column('text')
  level: VerificationLevel;

  @Column('text')
  method: VerificationMethod;

  @Column('jsonb', { name: 'methods_allowed' })
  methodsAllowed: VerificationMethod[];

  @Column('boolean', { name: 'pause_clock' })
  pauseClock: boolean;

  @Column('text', { name: 'reason_for_doubt', nullable: true })
  reasonForDoubt: string | null;

  @Column('timestamptz', { name: 'requested_at' })
  requestedAt: Date;

  @Column('text', { name: 'requested_by' })
  requestedBy: string;

  @Column('jsonb', { name: 'reminder_days' })
  reminderDays: number[];

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  /** Until when one sweep holds the expiry of this case (a lease: a crashed sweep's claim lapses). */
  @Column('timestamptz', { name: 'expiry_claimed_until', nullable: true })
  expiryClaimedUntil: Date | null;

  /**
   * The decision a caller is about to ask lifecycle-clock for (who, how, why), written first: when the
   * request's event arrives before the caller records the outcome, the case records this one, not a default.
   */
  @Column('jsonb', { name: 'pending_decision', nullable: true })
  pendingDecision: PendingDecision | null;

  @Column('timestamptz', { name: 'decided_at', nullable: true })
  decidedAt: Date | null;

  @Column('text', { name: 'decided_by', nullable: true })
  decidedBy: string | null;

  @Column('text', { name: 'decision_method', nullable: true })
  decisionMethod: VerificationMethod | null;

  @Column('text', { name: 'decision_reason', nullable: true })
  decisionReason: VerificationRejectionReason | null;

  @Column('text', { name: 'decision_note', nullable: true })
  decisionNote: string | null;
}
