import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EvidenceArtifactReference, VerificationLevel, VerificationMethod } from '@dsar/contracts';

/** A piece of identity evidence received for a request: uploaded files and references to evidence held elsewhere. */
@Entity({ name: 'verification_evidence' })
export class EvidenceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('uuid', { name: 'request_id' })
  requestId: string;

  /** The case pending when it arrived; null when none was. */
  @Column('uuid', { name: 'case_id', nullable: true })
  caseId: string | null;

  @Column('text')
  level: VerificationLevel;

  @Column('text')
  status: 'pending' | 'accepted' | 'rejected';

  @Column('jsonb', { name: 'methods_allowed' })
  methodsAllowed: VerificationMethod[];

  @Column('jsonb')
  artifacts: EvidenceArtifactReference[];

  @Column('text', { name: 'reason_for_doubt', nullable: true })
  reasonForDoubt: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('text', { name: 'created_by' })
  createdBy: string;
}
