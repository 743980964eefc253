import type { ProposalStatus, UpgradeChange, UpgradeProposal } from '@dsar/contracts';

/*
 * Upgrade proposals of the tenant's policy packs (docs/policy-packs/README.md): the step each proposal is at, the one
 * step the console offers next, and a change in words. Four eyes is the API's to decide (the proposer's own approval
 * is refused with a problem the page shows); the console offers the step by status and permission only.
 */

export const MANAGE_POLICIES = 'policies:manage';

export const PROPOSAL_STATUS_LABELS: Readonly<Record<ProposalStatus, string>> = {
  pending_approval: 'Waiting for approval',
  approved: 'Approved, not applied',
  applied: 'Applied',
};

export type ProposalStep = 'approve' | 'apply';

export const STEP_LABELS: Readonly<Record<ProposalStep, string>> = { approve: 'Approve', apply: 'Apply' };

/** The next step of a proposal the caller may take, or null. */
export function nextStep(proposal: Pick<UpgradeProposal, 'status'>, permissions: readonly string[]): ProposalStep | null {
  if (!permissions.includes(MANAGE_POLICIES)) return null;
  if (proposal.status === 'pending_approval') return 'approve';
  if (proposal.status === 'approved') return 'apply';
  return null;
}

export function stepPath(proposalId: string, step: ProposalStep): string {
  return `/policies/upgrades/${encodeURIComponent(proposalId)}/${step}`;
}

/** One change in words: `acme-uk (custom, GB) 1.0.0 → 1.1.0`. */
export function changeWords(change: UpgradeChange): string {
  const scope = [change.source === 'custom' ? 'custom' : 'built-in', change.jurisdiction, change.workspaceId ? `workspace ${change.workspaceId}` : null].filter(Boolean).join(', ');
  return `${change.packId} (${scope}) ${change.from} → ${change.to}`;
}

export function openRequestsWords(count: number): string {
  return count === 0 ? 'no open request on the old version' : `${count} open ${count === 1 ? 'request' : 'requests'} on the old version`;
}
