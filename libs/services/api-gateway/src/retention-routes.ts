import { RETENTION_MAX_DAYS, retentionPolicy, retentionPolicyList, retentionPolicyUpdate, retentionReport } from '@dsar/contracts';
import { IDEMPOTENCY_ERRORS } from './route-errors';
import type { GatewayRoute } from './route-types';

/** Public routes of retention: a tenant's policies per class and the purge report (docs/retention.md). */
export const RETENTION_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/tenants/:tenantId/retention',
    service: 'policy-registry',
    permission: 'retention:read',
    operationId: 'listRetentionPolicies',
    tenantWide: true,
    summary: "The retention policies of the caller's tenant",
    description:
      "All six classes (`request_record`, `audit_event`, `verification_evidence`, `fulfilment_artifact`, `delivery_log`, `notification_log`), each with its stored policy or the defaults (`minDays` 30, `maxDays` 365, `purgeEnabled` false, `legalHoldEnabled` false, `updatedAt` null). Only the caller's own tenant: another tenant is a 404.",
    tag: 'Retention',
    response: { status: 200, schema: retentionPolicyList, description: "One policy per class, in the classes' order." },
    errors: ['RESOURCE_NOT_FOUND'],
  },
  {
    method: 'PUT',
    path: '/tenants/:tenantId/retention',
    service: 'policy-registry',
    permission: 'retention:manage',
    operationId: 'putRetentionPolicy',
    tenantWide: true,
    summary: 'Set the retention policy of one class',
    description: `Creates or updates the policy of \`class\`. A field left out keeps its stored value (a legal hold is never lifted by leaving it out), else takes its default. Whole days from 0 to ${RETENTION_MAX_DAYS}, with \`minDays\` ≤ \`maxDays\` (else 422 \`SVC-BE-1701\`). The owning service applies it from its next sweep on: a legal hold stops every purge of the class at once, a sweep under way included (docs/retention.md). Emits \`dsar.policy.retention_changed.v1\`.`,
    tag: 'Retention',
    body: retentionPolicyUpdate,
    response: { status: 202, schema: retentionPolicy, description: 'The stored policy.' },
    errors: ['RESOURCE_NOT_FOUND', 'RETENTION_PERIOD_INVALID', ...IDEMPOTENCY_ERRORS],
  },
  {
    method: 'GET',
    path: '/tenants/:tenantId/retention/report',
    service: 'policy-registry',
    permission: 'retention:read',
    operationId: 'getRetentionReport',
    tenantWide: true,
    summary: 'What the next retention sweeps would purge',
    description:
      'Per class: the policy in force at the owning service, why nothing would be purged (`blockedBy`: `purge_disabled` or `legal_hold`), and the records and requests the next sweep would purge now. Each owning service counts with the policy copy its sweep uses, so the report and the sweep agree; nothing is purged. 503 when an owning service cannot be reached.',
    tag: 'Retention',
    response: { status: 200, schema: retentionReport, description: 'The report, classes in their order.' },
    errors: ['RESOURCE_NOT_FOUND'],
  },
];
