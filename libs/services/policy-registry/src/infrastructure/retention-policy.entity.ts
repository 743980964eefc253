import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';

/** A tenant's stored retention policy of one class (the classes without one are on their defaults). */
@Entity({ name: 'retention_policies' })
export class RetentionPolicyEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'tenant_id' })
  tenantId: string;

  @Column('text')
  class: RetentionClass;

  @Column('int', { name: 'min_days' })
  minDays: number;

  @Column('int', { name: 'max_days' })
  maxDays: number;

  @Column('boolean', { name: 'purge_enabled' })
  purgeEnabled: boolean;

  @Column('boolean', { name: 'legal_hold_enabled' })
  legalHoldEnabled: boolean;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  /** The principal that stored it. */
  @Column('text', { name: 'updated_by' })
  updatedBy: string;
}
