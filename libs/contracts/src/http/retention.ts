import { z } from 'zod';
import { timestamp } from './fields';

/**
 * HTTP contracts of retention (docs/retention.md): one policy per tenant and
 * class of records, which the service that owns the class enforces with a
 * purge sweep, and a report of what the next sweeps would purge.
 */

/** The classes of records, each owned (and purged) by one service. */
export const RETENTION_CLASSES = ['request_record', 'audit_event', 'verification_evidence', 'fulfilment_artifact', 'delivery_log', 'notification_log'] as const;
export type RetentionClass = (typeof RETENTION_CLASSES)[number];

/** The service that holds, and purges, each class. */
export const RETENTION_CLASS_OWNERS: Readonly<Record<RetentionClass, string>> = {
  request_record: 'lifecycle-clock',
  audit_event: 'audit-ledger',
  verification_evidence: 'verification',
  fulfilment_artifact: 'fulfilment-delivery',
  delivery_log: 'fulfilment-delivery',
  notification_log: 'notifier',
};

/** Defaults of a class without a stored policy (interface spec), and the upper bound of a period: 100 years. */
export const RETENTION_DEFAULTS = { minDays: 30, maxDays: 365, purgeEnabled: false, legalHoldEnabled: false } as const;
export const RETENTION_MAX_DAYS = 36_500;

const days = z.number().int().min(0).max(RETENTION_MAX_DAYS);

export const retentionPolicy = z
  .object({
    id: z.uuid().describe('Server-managed; stable per tenant and class'),
    tenantId: z.string(),
    class: z.enum(RETENTION_CLASSES),
    minDays: days.describe('Nothing of the class is purged younger than this'),
    maxDays: days.describe('Records are purged this many days after their class starts counting (docs/retention.md)'),
    purgeEnabled: z.boolean().describe('Whether the owning service purges at all'),
    legalHoldEnabled: z.boolean().describe('A legal hold stops every purge of the class at once, a sweep under way included'),
    updatedAt: timestamp.nullable().describe('When the policy was stored; null for a class still on its defaults'),
  })
  .meta({ id: 'RetentionPolicy' });
export type RetentionPolicy = z.infer<typeof retentionPolicy>;

export const retentionPolicyList = z.array(retentionPolicy).meta({ id: 'RetentionPolicyList' });

/** `PUT /tenants/:tenantId/retention`: one class; a field left out keeps its stored value, else its default. */
export const retentionPolicyUpdate = z
  .strictObject({
    class: z.enum(RETENTION_CLASSES),
    minDays: days.optional().describe(`Whole days, 0–${RETENTION_MAX_DAYS}; default ${RETENTION_DEFAULTS.minDays}`),
    maxDays: days.optional().describe(`Whole days, minDays–${RETENTION_MAX_DAYS}; default ${RETENTION_DEFAULTS.maxDays}`),
    purgeEnabled: z.boolean().optional().describe(`Default ${RETENTION_DEFAULTS.purgeEnabled}`),
    legalHoldEnabled: z.boolean().optional().describe(`Default ${RETENTION_DEFAULTS.legalHoldEnabled}`),
  })
  .meta({ id: 'RetentionPolicyUpdate' });
export type RetentionPolicyUpdate = z.infer<typeof retentionPolicyUpdate>;

/** What the next sweep of one class would purge, as its owning service counts it now. */
export const retentionClassReport = z
  .object({
    class: z.enum(RETENTION_CLASSES),
    owner: z.string().describe('The service that holds and purges the class'),
    purgeEnabled: z.boolean(),
    legalHoldEnabled: z.boolean(),
    maxDays: days,
    minDays: days,
    /** Why nothing would be purged: `purge_disabled`, `legal_hold`; null when the sweep would run. */
    blockedBy: z.enum(['purge_disabled', 'legal_hold']).nullable(),
    records: z.number().int().nonnegative().describe('Records the next sweep would purge (0 when blocked)'),
    requestIds: z.array(z.string()).describe('The requests they belong to (`tenant` for tenant-wide records), sorted'),
  })
  .meta({ id: 'RetentionClassReport' });
export type RetentionClassReport = z.infer<typeof retentionClassReport>;

export const retentionReport = z
  .object({
    tenantId: z.string(),
    generatedAt: timestamp,
    classes: z.array(retentionClassReport),
  })
  .meta({ id: 'RetentionReport' });
export type RetentionReport = z.infer<typeof retentionReport>;
