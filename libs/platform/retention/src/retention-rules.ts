import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RETENTION_DEFAULTS, type RetentionClass, type RetentionPolicyChangedV1 } from '@dsar/contracts';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RetentionRuleEntity } from './retention-rule.entity';

/** A class's policy as a service applies it: the stored copy, or the defaults (no purging) when none arrived. */
export interface RetentionRule {
  tenantId: string;
  class: RetentionClass;
  minDays: number;
  maxDays: number;
  purgeEnabled: boolean;
  legalHoldEnabled: boolean;
}

const DAY_MS = 86_400_000;

/** The newest instant whose records are due: the class's start must be at or before it (`maxDays`, never under `minDays`). */
export function cutoffOf(rule: Pick<RetentionRule, 'minDays' | 'maxDays'>, now: Date): Date {
  return new Date(now.getTime() - Math.max(rule.maxDays, rule.minDays) * DAY_MS);
}

/** Whether the rule lets a sweep purge at all, and if not, why. */
export function blockOf(rule: Pick<RetentionRule, 'purgeEnabled' | 'legalHoldEnabled'>): 'purge_disabled' | 'legal_hold' | null {
  if (rule.legalHoldEnabled) return 'legal_hold';
  return rule.purgeEnabled ? null : 'purge_disabled';
}

/** The service's copy of the retention policies, kept from policy-registry's events. */
@Injectable()
export class RetentionRules {
  constructor(private readonly uow: UnitOfWork) {}

  private get table(): string {
    return qualifiedTable(this.uow.dataSource, 'retention_rules');
  }

  /**
   * Keeps a stored policy, unless a newer one is kept already (events of one tenant come in order on one
   * partition, but a redelivery may bring an old one back). The row lock it takes waits for a purge under way
   * that holds the policy (`lockForPurge`): a legal hold applies from the next record on.
   */
  async apply(tx: EntityManager, policy: RetentionPolicyChangedV1): Promise<void> {
    await tx.query(
      `INSERT INTO ${this.table} AS r (tenant_id, class, min_days, max_days, purge_enabled, legal_hold_enabled, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (tenant_id, class) DO UPDATE
         SET min_days = EXCLUDED.min_days, max_days = EXCLUDED.max_days, purge_enabled = EXCLUDED.purge_enabled,
             legal_hold_enabled = EXCLUDED.legal_hold_enabled, updated_at = EXCLUDED.updated_at
       WHERE r.updated_at <= EXCLUDED.updated_at`,
      [policy.tenantId, policy.class, policy.minDays, policy.maxDays, policy.purgeEnabled, policy.legalHoldEnabled, policy.updatedAt],
    );
  }

  /** The rule of a tenant's class: its stored copy, else the defaults. */
  async ruleOf(tenantId: string, cls: RetentionClass, db: EntityManager = this.uow.dataSource.manager): Promise<RetentionRule> {
    const row = await db.findOne(RetentionRuleEntity, { where: { tenantId, class: cls } });
    return row ? toRule(row) : { tenantId, class: cls, ...RETENTION_DEFAULTS };
  }

  /** The tenants whose policy of the class lets a sweep purge (purge on, no hold). */
  async purgingTenants(cls: RetentionClass): Promise<RetentionRule[]> {
    const rows = await this.uow.dataSource.manager.find(RetentionRuleEntity, { where: { class: cls, purgeEnabled: true, legalHoldEnabled: false }, order: { tenantId: 'ASC' } });
    return rows.map(toRule);
  }

  /**
   * The rule as it stands, read with a share lock inside a purge's transaction: a policy change (a legal hold)
   * waits until that purge commits, and a purge that starts after the change sees it.
   */
  async lockForPurge(tx: EntityManager, tenantId: string, cls: RetentionClass): Promise<RetentionRule> {
    const [row]: Array<{ min_days: number; max_days: number; purge_enabled: boolean; legal_hold_enabled: boolean }> = await tx.query(
      `SELECT min_days, max_days, purge_enabled, legal_hold_enabled FROM ${this.table} WHERE tenant_id = $1 AND class = $2 FOR SHARE`,
      [tenantId, cls],
    );
    if (!row) return { tenantId, class: cls, ...RETENTION_DEFAULTS };
    return { tenantId, class: cls, minDays: row.min_days, maxDays: row.max_days, purgeEnabled: row.purge_enabled, legalHoldEnabled: row.legal_hold_enabled };
  }
}

function toRule(row: RetentionRuleEntity): RetentionRule {
  return { tenantId: row.tenantId, class: row.class, minDays: row.minDays, maxDays: row.maxDays, purgeEnabled: row.purgeEnabled, legalHoldEnabled: row.legalHoldEnabled };
}
