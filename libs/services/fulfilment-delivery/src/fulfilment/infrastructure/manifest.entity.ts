import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { ManifestValidationState, RequestType } from '@dsar/contracts';

/** The latest review decision of a manifest, for the version it was made on. */
export interface ManifestReview {
  action: 'approved' | 'rejected';
  by: string;
  at: string;
  comment: string | null;
  version: number;
}

/** A fulfilment on its way: noted before lifecycle-clock is asked, so that whoever records the outcome first records this one. */
export interface PendingFulfilment {
  by: string;
  manifestVersion: number;
  /** 1 for the request's first fulfilment, 2 after it was reopened on appeal and fulfilled again… */
  round: number;
  /** The operator's reason to fulfil past open or unconfirmed required tasks, and those tasks: recorded with the fulfilment. */
  override?: { reason: string; openTasks: Array<{ taskId: string; systemKey: string; state: string }> };
}

/**
 * The manifest of one request: what the artifacts are, their review, and the
 * request's fulfilment. One row per request, made on the first change (or the
 * first fulfilment); version 0 means no manifest yet. Every change to the
 * manifest locks this row, so changes, reviews and fulfilment of a request
 * take turns.
 */
@Entity({ name: 'fulfilment_manifests' })
export class ManifestEntity {
  @PrimaryColumn('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('text', { name: 'request_type' })
  requestType: RequestType;

  /** 0 while the request has no manifest; +1 per change of the artifacts or of the manifest's fields. */
  @Column('integer')
  version: number;

  @Column('text', { name: 'validation_state', nullable: true })
  validationState: ManifestValidationState | null;

  /** The categories the fulfilment callback named; null: the union of the artifacts' categories. */
  @Column('jsonb', { name: 'data_categories', nullable: true })
  dataCategories: string[] | null;

  @Column('jsonb', { name: 'redactions_applied' })
  redactionsApplied: string[];

  @Column('jsonb', { name: 'third_party_exclusions' })
  thirdPartyExclusions: string[];

  @Column('text', { name: 'supplementary_info_inline', nullable: true })
  supplementaryInfoInline: string | null;

  @Column('text', { name: 'supplementary_info_ref', nullable: true })
  supplementaryInfoRef: string | null;

  /** The principal who last changed the artifacts (upload, replacement, callback); four eyes keep every author from reviewing, not only this one. */
  @Column('text', { name: 'changed_by', nullable: true })
  changedBy: string | null;

  @Column('timestamptz', { name: 'changed_at', nullable: true })
  changedAt: Date | null;

  @Column('jsonb', { nullable: true })
  review: ManifestReview | null;

  /** Until when one call holds the request's fulfilment (a lease on the database's time: a crashed call's claim lapses). */
  @Column('timestamptz', { name: 'fulfilment_claimed_until', nullable: true })
  fulfilmentClaimedUntil: Date | null;

  @Column('jsonb', { name: 'pending_fulfilment', nullable: true })
  pendingFulfilment: PendingFulfilment | null;

  /** How many fulfilments were recorded (more than one when the request was reopened on appeal). */
  @Column('integer')
  fulfilments: number;

  @Column('timestamptz', { name: 'fulfilled_at', nullable: true })
  fulfilledAt: Date | null;

  @Column('text', { name: 'fulfilled_by', nullable: true })
  fulfilledBy: string | null;

  @Column('integer', { name: 'fulfilled_version', nullable: true })
  fulfilledVersion: number | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** One change of a manifest (an upload, a replacement, a callback, a review), oldest first. */
@Entity({ name: 'fulfilment_manifest_changes' })
export class ManifestChangeEntity {
  /** Orders the changes (several may share an instant). */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  seq: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('integer')
  version: number;

  @Column('text')
  change: 'artifact_uploaded' | 'artifact_replaced' | 'manifest_recorded' | 'approved' | 'rejected';

  @Column('text', { name: 'changed_by' })
  by: string;

  @Column('timestamptz', { name: 'changed_at' })
  at: Date;

  @Column('text', { name: 'validation_state' })
  validationState: ManifestValidationState;
}
