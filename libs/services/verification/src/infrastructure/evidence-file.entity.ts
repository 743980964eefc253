import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An uploaded evidence file: its metadata here, its bytes encrypted in storage under `storageKey`. */
@Entity({ name: 'verification_evidence_files' })
export class EvidenceFileEntity {
  /** The opaque key clients use (`ev_…`). */
  @PrimaryColumn('text', { name: 'artifact_key' })
  artifactKey: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('uuid', { name: 'evidence_id' })
  evidenceId: string;

  /** The client's filename, made safe (no directories, no control characters, at most 255 bytes). */
  @Column('text')
  filename: string;

  @Column('text', { name: 'content_type' })
  contentType: string;

  @Column('bigint', { transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  size: number;

  /** Hex sha256 of the plaintext bytes. */
  @Column('text')
  sha256: string;

  @Column('text', { name: 'storage_key' })
  storageKey: string;

  @Column('timestamptz', { name: 'uploaded_at' })
  uploadedAt: Date;

  @Column('text', { name: 'uploaded_by' })
  uploadedBy: string;

  /** When the bytes were deleted (retention); the metadata stays for the record. */
  @Column('timestamptz', { name: 'purged_at', nullable: true })
  purgedAt: Date | null;
}
