import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DataSystemAction, DataSystemMode, RequestType, TaskAnswer, TaskState } from '@dsar/contracts';
import type { Identity } from '../domain/task-rules';

/** The last error a system reported (or the service met) for a task. */
export interface TaskError {
  message: string;
  code: string | null;
  retryable: boolean;
  at: string;
}

/**
 * One task of a request for one data system and action (docs/data-systems.md#tasks). Its id is the idempotency key
 * the system is given. Identities are personal data, purged with the request; the token is kept as its SHA-256 only.
 */
@Entity({ name: 'data_system_task' })
export class DataSystemTaskEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text', { name: 'request_type' })
  requestType: RequestType;

  @Column('text', { name: 'system_key' })
  systemKey: string;

  @Column('integer', { name: 'system_version' })
  systemVersion: number;

  @Column('text')
  action: DataSystemAction;

  @Column('text')
  mode: DataSystemMode;

  @Column('boolean')
  required: boolean;

  @Column('text')
  state: TaskState;

  /** Why the task is in its state when no answer says it: `no_identity`, `timed_out`, `attempts_exhausted`, an operator's reason… */
  @Column('text', { name: 'state_reason', nullable: true })
  stateReason: string | null;

  /** Claims so far. */
  @Column('integer')
  attempts: number;

  @Column('integer', { name: 'max_attempts' })
  maxAttempts: number;

  /** The tasks of this request of the systems this one comes `after`. */
  @Column('jsonb', { name: 'depends_on' })
  dependsOn: string[];

  /** The failed task that blocks this one (state `blocked`). */
  @Column('uuid', { name: 'blocked_by', nullable: true })
  blockedBy: string | null;

  @Column('timestamptz', { name: 'legal_due_at' })
  legalDueAt: Date;

  @Column('timestamptz', { name: 'due_at' })
  dueAt: Date;

  @Column('timestamptz', { name: 'timeout_at' })
  timeoutAt: Date;

  /** Not claimed before this (the webhook sender's backoff). */
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt: Date | null;

  /** The claim's lease, on the database's clock. */
  @Column('timestamptz', { name: 'lease_expires_at', nullable: true })
  leaseExpiresAt: Date | null;

  @Column('text', { name: 'claimed_by', nullable: true })
  claimedBy: string | null;

  @Column('text', { name: 'token_sha256', nullable: true })
  tokenSha256: string | null;

  @Column('timestamptz', { name: 'token_expires_at', nullable: true })
  tokenExpiresAt: Date | null;

  @Column('jsonb')
  identities: Identity[];

  @Column('jsonb', { name: 'data_categories' })
  dataCategories: string[];

  /** The answer that settled the task, as given (by the system, or an operator with `byOperator` evidence). */
  @Column('jsonb', { nullable: true })
  outcome: TaskAnswer | null;

  @Column('jsonb', { name: 'last_error', nullable: true })
  lastError: TaskError | null;

  @Column('timestamptz', { name: 'reminded_at', nullable: true })
  remindedAt: Date | null;

  @Column('timestamptz', { name: 'escalated_at', nullable: true })
  escalatedAt: Date | null;

  @Column('timestamptz', { name: 'answered_at', nullable: true })
  answeredAt: Date | null;

  @Column('text', { name: 'answered_by', nullable: true })
  answeredBy: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}

/** A fan-out a lifecycle event asked for: done by the fan-out job, which reads the request outside the event's transaction. */
@Entity({ name: 'data_system_fanout' })
export class DataSystemFanoutEntity {
  @PrimaryColumn('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  /** `pending` until done; `cancelled` when the request was closed or refused first. */
  @Column('text')
  state: 'pending' | 'done' | 'cancelled';

  @Column('timestamptz', { name: 'asked_at' })
  askedAt: Date;

  @Column('timestamptz', { name: 'claimed_until', nullable: true })
  claimedUntil: Date | null;

  @Column('integer')
  tries: number;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
