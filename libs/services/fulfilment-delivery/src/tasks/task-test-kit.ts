import { randomUUID } from 'node:crypto';
import type { RequestDetail } from '@dsar/contracts';

/** A request in progress as lifecycle-clock answers it, for the task tests' stand-in of lifecycle-clock. */
export function requestInProgress(tenantId: string, over: Partial<RequestDetail> = {}): RequestDetail {
  // eslint-disable-next-line no-restricted-syntax -- a request received now, as the tests' stand-in of lifecycle-clock says
  const at = Date.now();
  const now = new Date(at).toISOString();
  return {
    id: randomUUID(),
    tenantId,
    workspaceId: null,
    status: 'in_progress',
    requestType: 'access',
    requestTypeInferred: false,
    requestedRights: [],
    typeConfidence: null,
    detectedLanguage: null,
    triage: null,
    jurisdiction: 'DE',
    receivedAt: now,
    dueAt: new Date(at + 30 * 86_400_000).toISOString(),
    clockMode: 'receipt',
    policyPack: 'eu-gdpr',
    policyVersion: '1',
    intakeSource: { channel: 'email', rawText: 'Send me my data', receivedAt: now },
    locale: null,
    requestor: { type: 'subject', email: 'jane@example.org' },
    authority: null,
    appeals: [],
    acknowledgedAt: now,
    acknowledgementDueAt: null,
    statusReason: null,
    statusChangedAt: now,
    duplicate: null,
    identityActivity: { requests: 1, windowDays: 30 },
    allowedActions: [],
    createdAt: now,
    updatedAt: now,
    ...over,
  };
}
