import type { RetentionClass, RetentionClassReport, RetentionPolicy, RetentionPolicyUpdate } from '@dsar/contracts';

/*
 * Retention (docs/retention.md): the classes in words, the form that sets one class's policy
 * (PUT /tenants/{tenantId}/retention) and the report's reasons in words. Pure: the page draws them.
 */

export const RETENTION_CLASS_LABELS: Readonly<Record<RetentionClass, string>> = {
  request_record: 'Request records',
  audit_event: 'Audit events',
  verification_evidence: 'Verification evidence',
  fulfilment_artifact: 'Fulfilment artifacts',
  delivery_log: 'Delivery log',
  notification_log: 'Notification log',
};

export const BLOCKED_BY_LABELS: Readonly<Record<NonNullable<RetentionClassReport['blockedBy']>, string>> = {
  purge_disabled: 'Purging is off',
  legal_hold: 'Legal hold',
};

/** The same bound as the contract's RETENTION_MAX_DAYS (100 years). */
export const RETENTION_MAX_DAYS = 36_500;

export interface RetentionFormValues {
  minDays: string;
  maxDays: string;
  purgeEnabled: boolean;
  legalHoldEnabled: boolean;
}

export function formOfPolicy(policy: RetentionPolicy): RetentionFormValues {
  return { minDays: String(policy.minDays), maxDays: String(policy.maxDays), purgeEnabled: policy.purgeEnabled, legalHoldEnabled: policy.legalHoldEnabled };
}

const WHOLE_DAYS = /^\d{1,5}$/;

function daysOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!WHOLE_DAYS.test(trimmed)) return undefined;
  const days = Number(trimmed);
  return days <= RETENTION_MAX_DAYS ? days : undefined;
}

export interface RetentionFormError {
  field: 'minDays' | 'maxDays';
  message: string;
}

export function retentionFormErrors(values: RetentionFormValues): RetentionFormError[] {
  const min = daysOf(values.minDays);
  const max = daysOf(values.maxDays);
  const errors: RetentionFormError[] = [];
  if (min === undefined) errors.push({ field: 'minDays', message: `Whole days from 0 to ${RETENTION_MAX_DAYS}.` });
  if (max === undefined) errors.push({ field: 'maxDays', message: `Whole days from 0 to ${RETENTION_MAX_DAYS}.` });
  else if (min !== undefined && max < min) errors.push({ field: 'maxDays', message: 'At least the minimum days.' });
  return errors;
}

/** The body of valid values: every field given, so that what the form shows is what is stored. */
export function retentionBody(retentionClass: RetentionClass, values: RetentionFormValues): RetentionPolicyUpdate {
  return {
    class: retentionClass,
    minDays: Number(values.minDays.trim()),
    maxDays: Number(values.maxDays.trim()),
    purgeEnabled: values.purgeEnabled,
    legalHoldEnabled: values.legalHoldEnabled,
  };
}

export function retentionPath(tenantId: string): string {
  return `/tenants/${encodeURIComponent(tenantId)}/retention`;
}

/** What the next sweep of a class would do, in words. */
export function sweepWords(report: RetentionClassReport): string {
  if (report.blockedBy) return `Nothing: ${BLOCKED_BY_LABELS[report.blockedBy].toLowerCase()}`;
  if (report.records === 0) return 'Nothing to purge now';
  const requests = report.requestIds.filter((id) => id !== 'tenant').length;
  const records = `${report.records} ${report.records === 1 ? 'record' : 'records'}`;
  return requests > 0 ? `${records} of ${requests} ${requests === 1 ? 'request' : 'requests'}` : records;
}
