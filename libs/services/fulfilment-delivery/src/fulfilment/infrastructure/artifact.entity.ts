import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ArtifactType } from '@dsar/contracts';

const bigintNumber = { to: (v: number) => v, from: (v: string | number) => Number(v) };

/** An artifact of a request's manifest: what it is; its bytes are in its versions. Its id stays across replacements. */
@Entity({ name: 'fulfilment_artifacts' })
export class ArtifactEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('text')
  title: string;

  /** The display name: the file name of its first version, kept across replacements; delivered under it. */
  @Column('text')
  filename: string;

  @Column('text')
  type: ArtifactType;

  /** Set by the fulfilment callback. */
  @Column('jsonb', { name: 'data_categories' })
  dataCategories: string[];

  /** The current version (1 for the upload, +1 per replacement). */
  @Column('integer', { name: 'current_version' })
  currentVersion: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('text', { name: 'created_by' })
  createdBy: string;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('text', { name: 'updated_by' })
  updatedBy: string;

  /** When the bytes of every version were deleted (retention); the metadata stays for the record. */
  @Column('timestamptz', { name: 'purged_at', nullable: true })
  purgedAt: Date | null;

  /** The data system whose task answered with this file (a connector's access answer); null for a person's upload. */
  @Column('text', { name: 'system_key', nullable: true })
  systemKey: string | null;

  /** The task it answers, with `systemKey`. */
  @Column('uuid', { name: 'task_id', nullable: true })
  taskId: string | null;
}

/** One stored version of an artifact: its file's metadata here, its bytes encrypted in storage under `storageKey`. */
@Entity({ name: 'fulfilment_artifact_versions' })
export class ArtifactVersionEntity {
  /** The opaque key of this version (`art_…`). */
  @PrimaryColumn('text', { name: 'artifact_key' })
  artifactKey: string;

  @Column('uuid', { name: 'artifact_id' })
  artifactId: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  @Column('integer')
  version: number;

  /** The client's filename, made safe (no directories, no control characters, at most 255 bytes). */
  @Column('text')
  filename: string;

  @Column('text', { name: 'content_type' })
  contentType: string;

  @Column('bigint', { transformer: bigintNumber })
  size: number;

  /** Hex sha256 of the plaintext bytes. */
  @Column('text')
  sha256: string;

  @Column('text', { name: 'storage_key' })
  storageKey: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('text', { name: 'created_by' })
  createdBy: string;

  /** Why this version replaced the one before (a redaction), as the replacement said; null for the upload or without a reason. */
  @Column('text', { name: 'redaction_reason', nullable: true })
  redactionReason: string | null;

  /** When a replacement superseded it; null for the current version. Replaced versions are purged at fulfilment. */
  @Column('timestamptz', { name: 'replaced_at', nullable: true })
  replacedAt: Date | null;

  @Column('timestamptz', { name: 'purged_at', nullable: true })
  purgedAt: Date | null;
}
