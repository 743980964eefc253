import { z } from 'zod';
import { timestamp } from '../http/fields';
import { RETENTION_CLASSES, RETENTION_MAX_DAYS } from '../http/retention';
import type { EventTypeDefinition } from './event-catalog';
import { Topics } from './topics';

/**
 * Retention (docs/retention.md). policy-registry publishes each stored policy
 * whole on `dsar.policy.v1` (event-carried state): every service that owns a
 * class keeps its own copy and sweeps from it, never calling policy-registry.
 * The sweeps publish what they purged on `dsar.retention.v1`: ids and counts,
 * no personal data.
 */

/** The subject, and so the audit chain and the Kafka key, of a tenant-wide fact: `tenant:<tenantId>`. */
export function tenantSubject(tenantId: string): string {
  return `tenant:${tenantId}`;
}

const days = z.number().int().min(0).max(RETENTION_MAX_DAYS);

export const retentionPolicyChangedV1 = z.object({
  tenantId: z.string().min(1),
  policyId: z.uuid(),
  class: z.enum(RETENTION_CLASSES),
  minDays: days,
  maxDays: days,
  purgeEnabled: z.boolean(),
  legalHoldEnabled: z.boolean(),
  /** When the policy was stored: a copy keeps the newest it has seen. */
  updatedAt: timestamp,
  actor: z.string().min(1),
});
export type RetentionPolicyChangedV1 = z.infer<typeof retentionPolicyChangedV1>;

export const retentionPurgedV1 = z.object({
  tenantId: z.string().min(1),
  /** The request the records belonged to; null for tenant-wide records (a digest notification). */
  requestId: z.uuid().nullable(),
  workspaceId: z.string().min(1).nullable(),
  class: z.enum(RETENTION_CLASSES),
  /** The ids of the records purged, as their owner names them (notification ids, artifact ids, evidence keys, audit sequences…). */
  recordIds: z.array(z.string().min(1)),
  /** How many records, and how many stored files among them. */
  records: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  /** The instant the class started counting for these records, and the policy that applied. */
  startedAt: timestamp,
  maxDays: days,
  minDays: days,
  occurredAt: timestamp,
});
export type RetentionPurgedV1 = z.infer<typeof retentionPurgedV1>;

export const RetentionEventTypes = {
  policyChanged: 'dsar.policy.retention_changed.v1',
  purged: 'dsar.retention.purged.v1',
} as const;

export const retentionEventDefinitions: EventTypeDefinition[] = [
  {
    type: RetentionEventTypes.policyChanged,
    topic: Topics.policy,
    schema: retentionPolicyChangedV1,
    producer: 'policy-registry',
    description: "A tenant's retention policy of one class was stored: the whole policy, which every owning service copies.",
  },
  {
    type: RetentionEventTypes.purged,
    topic: Topics.retention,
    schema: retentionPurgedV1,
    // Each owning service publishes it for its own classes (RETENTION_CLASS_OWNERS).
    producer: 'lifecycle-clock, audit-ledger, verification, fulfilment-delivery, notifier',
    description: 'A retention sweep purged records of one class of one request (or tenant-wide records).',
  },
];
