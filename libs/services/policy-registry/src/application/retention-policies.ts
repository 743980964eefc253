import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  type Principal,
  RETENTION_CLASSES,
  RETENTION_DEFAULTS,
  RetentionEventTypes,
  type RetentionPolicy,
  type RetentionPolicyChangedV1,
  type RetentionPolicyUpdate,
  tenantSubject,
} from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { Outbox } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { RetentionPolicyEntity } from '../infrastructure/retention-policy.entity';

type Row = { id: string; tenant_id: string; class: RetentionPolicy['class']; min_days: number; max_days: number; purge_enabled: boolean; legal_hold_enabled: boolean; updated_at: Date };

/** PostgreSQL's check_violation: here, the table's `max_days >= min_days`. */
const CHECK_VIOLATION = '23514';

/**
 * The tenants' retention policies (docs/retention.md). Each stored policy is
 * published whole on `dsar.policy.v1` in the transaction that stores it, so
 * the services that own the classes keep their own copies and sweep from
 * them; this service is never asked during a sweep.
 */
@Injectable()
export class RetentionPolicies {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly outbox: Outbox,
    private readonly clock: Clock,
  ) {}

  /** Every class, stored or on its defaults, in the classes' order. */
  async list(tenantId: string): Promise<RetentionPolicy[]> {
    const stored = await this.uow.dataSource.manager.find(RetentionPolicyEntity, { where: { tenantId } });
    return RETENTION_CLASSES.map((cls) => {
      const row = stored.find((r) => r.class === cls);
      if (row) return viewOf(row);
      return { id: defaultPolicyId(tenantId, cls), tenantId, class: cls, ...RETENTION_DEFAULTS, updatedAt: null };
    });
  }

  /**
   * Stores the policy of one class: a field left out keeps its stored value (a legal hold is never lifted by
   * omission), else its default. Concurrent changes of one class take turns on its row; each gets a later
   * `updatedAt`, so the copies end on the last one.
   */
  async put(principal: Principal, tenantId: string, update: RetentionPolicyUpdate): Promise<RetentionPolicy> {
    const table = qualifiedTable(this.uow.dataSource, 'retention_policies');
    try {
      return await this.uow.run(async (tx) => {
        const [row]: Row[] = await tx.query(
          `INSERT INTO ${table} AS p (id, tenant_id, class, min_days, max_days, purge_enabled, legal_hold_enabled, updated_at, updated_by)
           VALUES ($1, $2, $3, COALESCE($4::int, $10::int), COALESCE($5::int, $11::int), COALESCE($6::boolean, $12::boolean), COALESCE($7::boolean, $13::boolean), $8, $9)
           ON CONFLICT (tenant_id, class) DO UPDATE
             SET min_days = COALESCE($4::int, p.min_days), max_days = COALESCE($5::int, p.max_days),
                 purge_enabled = COALESCE($6::boolean, p.purge_enabled), legal_hold_enabled = COALESCE($7::boolean, p.legal_hold_enabled),
                 updated_at = GREATEST($8::timestamptz, p.updated_at + interval '1 millisecond'), updated_by = $9
           RETURNING id, tenant_id, class, min_days, max_days, purge_enabled, legal_hold_enabled, updated_at`,
          [
            defaultPolicyId(tenantId, update.class),
            tenantId,
            update.class,
            update.minDays ?? null,
            update.maxDays ?? null,
            update.purgeEnabled ?? null,
            update.legalHoldEnabled ?? null,
            this.clock.now(),
            principal.id,
            RETENTION_DEFAULTS.minDays,
            RETENTION_DEFAULTS.maxDays,
            RETENTION_DEFAULTS.purgeEnabled,
            RETENTION_DEFAULTS.legalHoldEnabled,
          ],
        );
        const policy = viewOf({
          id: row.id,
          tenantId: row.tenant_id,
          class: row.class,
          minDays: row.min_days,
          maxDays: row.max_days,
          purgeEnabled: row.purge_enabled,
          legalHoldEnabled: row.legal_hold_enabled,
          updatedAt: new Date(row.updated_at),
        });
        await this.outbox.record(tx, {
          type: RetentionEventTypes.policyChanged,
          subject: tenantSubject(tenantId),
          tenantId,
          data: {
            tenantId,
            policyId: policy.id,
            class: policy.class,
            minDays: policy.minDays,
            maxDays: policy.maxDays,
            purgeEnabled: policy.purgeEnabled,
            legalHoldEnabled: policy.legalHoldEnabled,
            updatedAt: policy.updatedAt as string,
            actor: principal.id,
          } satisfies RetentionPolicyChangedV1,
        });
        return policy;
      });
    } catch (e) {
      if ((e as { code?: string; driverError?: { code?: string } }).code === CHECK_VIOLATION || (e as { driverError?: { code?: string } }).driverError?.code === CHECK_VIOLATION) {
        const field = update.minDays !== undefined ? 'minDays' : 'maxDays';
        throw new ProblemError('RETENTION_PERIOD_INVALID', 'minDays may not be greater than maxDays.', [
          {
            field,
            message: update.minDays !== undefined && update.maxDays !== undefined ? 'must not be greater than maxDays' : `does not fit the stored ${field === 'minDays' ? 'maxDays' : 'minDays'}`,
          },
        ]);
      }
      throw e;
    }
  }
}

/**
 * One id per tenant and class, the same before and after the policy is first stored: a name-based (v5-shaped)
 * UUID of the pair, so clients can key on it.
 */
export function defaultPolicyId(tenantId: string, cls: string): string {
  return nameBasedUuid(`retention:${tenantId}:${cls}`);
}

function nameBasedUuid(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function viewOf(row: Pick<RetentionPolicyEntity, 'id' | 'tenantId' | 'class' | 'minDays' | 'maxDays' | 'purgeEnabled' | 'legalHoldEnabled' | 'updatedAt'>): RetentionPolicy {
  return {
    id: row.id,
    tenantId: row.tenantId,
    class: row.class,
    minDays: row.minDays,
    maxDays: row.maxDays,
    purgeEnabled: row.purgeEnabled,
    legalHoldEnabled: row.legalHoldEnabled,
    updatedAt: row.updatedAt.toISOString(),
  };
}
