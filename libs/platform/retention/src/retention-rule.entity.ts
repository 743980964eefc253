import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RetentionClass } from '@dsar/contracts';

/**
 * A service's own copy of one tenant's retention policy of one class, kept
 * from `dsar.policy.retention_changed.v1` (event-carried state): the purge
 * sweeps read it and never call policy-registry, which may be down.
 */
@Entity({ name: 'retention_rules' })
export class RetentionRuleEntity {
  @PrimaryColumn('text', { name: 'tenant_id' })
  tenantId: string;

  @PrimaryColumn('text')
  class: RetentionClass;

  @Column('int', { name: 'min_days' })
  minDays: number;

  @Column('int', { name: 'max_days' })
  maxDays: number;

  @Column('boolean', { name: 'purge_enabled' })
  purgeEnabled: boolean;

  @Column('boolean', { name: 'legal_hold_enabled' })
  legalHoldEnabled: boolean;

  /** When policy-registry stored the policy: an older event never overwrites a newer copy. */
  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
