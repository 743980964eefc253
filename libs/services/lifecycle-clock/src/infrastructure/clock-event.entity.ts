import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PauseReason } from '@dsar/contracts';

/**
 * `repin`: an applied upgrade moved the request to another version of its pack; the engine recomputes on the new one.
 * `correction`: an operator corrected the request type or jurisdiction; the engine recomputes from receipt on them.
 */
export type ClockEventKind = 'pause' | 'resume' | 'extension' | 'reopen' | 'repin' | 'correction';

/** What a correction changed, before and after. */
export interface CorrectionDetails {
  from: CorrectedFacts;
  to: CorrectedFacts;
}
export interface CorrectedFacts {
  /** null: the request was (or is still) in triage. */
  requestType: string | null;
  jurisdiction: string;
  policyPack: string;
  policyVersion: string;
  dueAt: string;
}

/**
 * One thing that happened to a request's clock. The rows of a request, in
 * `seq` order, are the input the clock engine replays; they are appended, never
 * changed, so the deadline of any moment can be recomputed.
 */
@Entity({ name: 'request_clock_events' })
export class ClockEventEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  /** 1, 2, … per request; unique with request_id, so two writers cannot both append the same step. */
  @Column('integer')
  seq: number;

  @Column('text')
  kind: ClockEventKind;

  /** The pause reason (pause events). */
  @Column('text', { name: 'pause_reason', nullable: true })
  pauseReason: PauseReason | null;

  /** When it happened (may be earlier than recorded_at, e.g. identity received by post). */
  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  @Column('timestamptz', { name: 'recorded_at', default: () => 'now()' })
  recordedAt: Date;

  @Column('text')
  actor: string;

  @Column('integer', { name: 'additional_days', nullable: true })
  additionalDays: number | null;

  @Column('integer', { name: 'additional_months', nullable: true })
  additionalMonths: number | null;

  @Column('text', { nullable: true })
  justification: string | null;

  /** The reasons given for an extension, as the requester is told them. */
  @Column('text', { name: 'extension_reason', nullable: true })
  extensionReason: string | null;

  @Column('text', { nullable: true })
  note: string | null;

  /** The pack versions a `repin` moved the request from and to. */
  @Column('text', { name: 'from_version', nullable: true })
  fromVersion: string | null;

  @Column('text', { name: 'to_version', nullable: true })
  toVersion: string | null;

  /** What a `correction` changed (its `note` is the reason). */
  @Column('jsonb', { nullable: true })
  correction: CorrectionDetails | null;
}
