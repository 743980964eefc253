import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** What a delivery log entry records about one try. */
export type DeliveryLogOutcome =
  'prepared' | 'issued' | 'ok' | 'already_completed' | 'wrong_token' | 'expired' | 'locked' | 'missing_token' | 'revoked' | 'not_completed' | 'throttled' | 'metadata' | 'bytes';

/**
 * One try of a delivery step (retention class `delivery_log`): preparing,
 * issuing a challenge, completing it, downloading. `eventType` is the delivery
 * event type the try belongs to, `eventId` the event it recorded (none for a
 * repeated completion, which records nothing new). A refusal that repeats the
 * request's newest entry (same caller, outcome, challenge and detail) is not
 * a new entry: it counts in `repeats` of that one, and publishes nothing.
 */
@Entity({ name: 'delivery_log' })
export class DeliveryLogEntryEntity {
  /** Increasing in the order the tries were recorded (times may repeat). */
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'BY DEFAULT' })
  seq: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text', { name: 'event_type' })
  eventType: string;

  @Column('uuid', { name: 'event_id', nullable: true })
  eventId: string | null;

  @Column('text')
  outcome: DeliveryLogOutcome;

  @Column('text')
  actor: string;

  @Column('text', { nullable: true })
  detail: string | null;

  @Column('uuid', { name: 'challenge_id', nullable: true })
  challengeId: string | null;

  @Column('uuid', { name: 'artifact_id', nullable: true })
  artifactId: string | null;

  /** When the try happened; for repeated refusals, the first of them. */
  @Column('timestamptz')
  at: Date;

  /** How many tries the entry stands for: 1, or more for a refusal repeated without anything in between. */
  @Column('integer', { default: 1 })
  repeats: number;

  /** The latest of the repeated tries; null while there is one. */
  @Column('timestamptz', { name: 'last_at', nullable: true })
  lastAt: Date | null;
}
