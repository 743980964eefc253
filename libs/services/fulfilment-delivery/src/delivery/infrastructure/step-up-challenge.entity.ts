import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A step-up challenge of a request's delivery. Its token is never stored, only
 * its SHA-256. At most one challenge per request is current (`revokedAt` null):
 * a new one revokes it.
 */
@Entity({ name: 'delivery_step_up_challenges' })
export class StepUpChallengeEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text', { name: 'workspace_id', nullable: true })
  workspaceId: string | null;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  /** Hex SHA-256 of the token. */
  @Column('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('timestamptz', { name: 'issued_at' })
  issuedAt: Date;

  @Column('text', { name: 'issued_by' })
  issuedBy: string;

  /** Exactly 24 hours after issuance. */
  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  /** Wrong tokens it takes before it locks (STEP_UP_MAX_FAILURES when it was issued). */
  @Column('integer', { name: 'max_failures' })
  maxFailures: number;

  /** Wrong tokens presented to complete it, counted atomically (`failures = failures + 1`). */
  @Column('integer')
  failures: number;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;

  @Column('text', { name: 'completed_by', nullable: true })
  completedBy: string | null;

  /** When a newer challenge replaced it. */
  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  /** A link of the person's download page (docs/delivery.md): the notification event it was issued for; null for a challenge of the API. */
  @Column('text', { name: 'link_key', nullable: true })
  linkKey?: string | null;

  /** With the internal auth key, derives the link's credential (whose SHA-256 is `tokenHash`) and its code; 16 random bytes, hex. */
  @Column('text', { name: 'link_salt', nullable: true })
  linkSalt?: string | null;

  /** The language the page speaks (the emails'). */
  @Column('text', { name: 'link_language', nullable: true })
  linkLanguage?: string | null;

  /** Hex SHA-256 of the session the code answered; the downloads of the page need it. */
  @Column('text', { name: 'session_hash', nullable: true })
  sessionHash?: string | null;

  @Column('timestamptz', { name: 'session_expires_at', nullable: true })
  sessionExpiresAt?: Date | null;
}
