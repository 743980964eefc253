import type { VerificationCaseStatus } from '@dsar/contracts';
import type { Problem } from '../../problem';

/* The verification case as the Verification tab shows it (docs/verification.md). */

export const CASE_STATUS_LABELS: Readonly<Record<VerificationCaseStatus, string>> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export const EVIDENCE_STATUS_LABELS: Readonly<Record<'pending' | 'accepted' | 'rejected', string>> = {
  pending: 'Pending review',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** The problem of a request that has no verification case yet (404 `SVC-BE-1405`): not an error, nothing was asked. */
export const NO_CASE_CODE = 'SVC-BE-1405';

export function isNoCase(problem: Problem): boolean {
  return problem.status === 404 && problem.code === NO_CASE_CODE;
}

/** What downloading an evidence file needs (the route table): the case and its metadata need only `requests:read`. */
export const EVIDENCE_READ_PERMISSION = 'evidence:read';
