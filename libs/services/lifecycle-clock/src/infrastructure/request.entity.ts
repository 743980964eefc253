import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';
import type { DuplicateState, IdentityKind, IntakePayload, RequestedRight } from '@dsar/contracts';

/**
 * The request aggregate's row. lifecycle-clock alone writes it; the version
 * column makes concurrent changes conflict. Indexes are declared in the
 * migrations (the queue's are partial and ordered).
 */
@Entity({ name: 'requests' })
export class RequestEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('text')
  jurisdiction: string;

  /** null while the request is in triage (`triageReason` says why) until a correction names the type. */
  @Column('text', { name: 'request_type', nullable: true })
  requestType: string | null;

  /** Every right the letter asks for, with the words that showed it, the primary (or suggested) one first; [] when intake recorded none. */
  @Column('jsonb', { name: 'requested_rights', default: () => "'[]'::jsonb" })
  requestedRights: RequestedRight[];

  /** The confidence (0–1) of intake's reading of the type; null when the client named the type. */
  @Column('double precision', { name: 'type_confidence', nullable: true })
  typeConfidence: number | null;

  /** The intake text's language as detected (ISO 639-1), any language; null when not detected. `locale` is set only for the ones intake reads. */
  @Column('text', { name: 'detected_language', nullable: true })
  detectedLanguage: string | null;

  /**
   * Why intake left the type to an operator (a TRIAGE_REASONS value), and its best guess. Kept after a correction names
   * the type: the request is in triage while `requestType` is null, and these say why it was.
   */
  @Column('text', { name: 'triage_reason', nullable: true })
  triageReason: string | null;

  @Column('text', { name: 'suggested_type', nullable: true })
  suggestedType: string | null;

  /** True when intake inferred the type from the raw text instead of the client naming it. */
  @Column('boolean', { name: 'request_type_inferred' })
  requestTypeInferred: boolean;

  @Column('text')
  status: string;

  @Column('text')
  channel: string;

  /** When the service recorded the request. */
  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** When the original channel received it: the provenance time the legal clock counts from. */
  @Column('timestamptz', { name: 'intake_received_at' })
  intakeReceivedAt: Date;

  @Column('text', { name: 'clock_mode' })
  clockMode: 'receipt' | 'active';

  /** The policy pack and version pinned at creation: later pack releases never move this request's deadline (only an applied upgrade that re-pins it). */
  @Column('text', { name: 'policy_pack' })
  policyPack: string;

  @Column('text', { name: 'policy_version' })
  policyVersion: string;

  /** Why that version: in force on the day of receipt, or a custom pack activated for the tenant or workspace; null for older rows. */
  @Column('text', { name: 'policy_basis', nullable: true })
  policyBasis: string | null;

  /** The deadline from the clock engine (pauses and extensions applied); the queue sorts and filters on it. */
  @Column('timestamptz', { name: 'due_at' })
  dueAt: Date;

  /** Set while the clock is paused: when the pause began. */
  @Column('timestamptz', { name: 'clock_paused_since', nullable: true })
  clockPausedSince: Date | null;

  @Column('jsonb', { name: 'intake_source' })
  intakeSource: IntakePayload['intakeSource'];

  /** The requester's language (ISO 639-1) as intake read it from the raw text; null when not recognised. Notifications use it. */
  @Column('text', { nullable: true })
  locale: string | null;

  @Column('jsonb', { nullable: true })
  requestor: IntakePayload['requestor'] | null;

  @Column('jsonb', { nullable: true })
  authority: IntakePayload['authority'] | null;

  /** When the requester was told of receipt; an acknowledgement happens once. */
  @Column('timestamptz', { name: 'acknowledged_at', nullable: true })
  acknowledgedAt: Date | null;

  /** The pack's acknowledgement deadline, where it has one; the deadline monitor watches it until acknowledgedAt is set. */
  @Column('timestamptz', { name: 'acknowledgement_due_at', nullable: true })
  acknowledgementDueAt: Date | null;

  /** Why the request is refused or closed (a refusal or closure reason); null while open or fulfilled. */
  @Column('text', { name: 'status_reason', nullable: true })
  statusReason: string | null;

  @Column('timestamptz', { name: 'status_changed_at' })
  statusChangedAt: Date;

  /** The appeal waiting for its decision, if any: a request has one open appeal at a time. */
  @Column('uuid', { name: 'open_appeal_id', nullable: true })
  openAppealId: string | null;

  /**
   * The request this one repeats, as intake marked it (docs/identity.md#duplicates), whatever an operator decided:
   * `duplicateState` says whether the mark waits (`marked`), stands (`confirmed`) or was lifted (`separated`). null
   * when never marked.
   */
  @Column('uuid', { name: 'duplicate_of', nullable: true })
  duplicateOf: string | null;

  @Column('text', { name: 'duplicate_state', nullable: true })
  duplicateState: DuplicateState | null;

  @Column('timestamptz', { name: 'duplicate_marked_at', nullable: true })
  duplicateMarkedAt: Date | null;

  /** The kinds of identity it shared with the request it was marked against. */
  @Column('jsonb', { name: 'duplicate_matched_kinds', nullable: true })
  duplicateMatchedKinds: IdentityKind[] | null;

  /** The newest domain event of this request: readers of derived views wait until they have seen it. */
  @Column('uuid', { name: 'last_event_id', nullable: true })
  lastEventId: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;

  @VersionColumn()
  version: number;
}

/**
 * A request as its create writes it: every column but the two times the database stamps (`created_at`, `updated_at`),
 * which the create does not read back.
 */
export type NewRequestRow = Omit<RequestEntity, 'createdAt' | 'updatedAt'>;
