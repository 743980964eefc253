import type { AppealDecision, AppealDecisionCommand, AppealView } from '@dsar/contracts';

/* A request's appeals (appeal-routes.ts in the api-gateway): their state in words and the decision's body. */

export const APPEAL_DECISION_LABELS: Readonly<Record<AppealDecision, string>> = {
  approve: 'Approve (the request reopens)',
  partial: 'Approve in part (the request reopens)',
  deny: 'Deny (the outcome stands)',
};

const DECIDED_WORDS: Readonly<Record<AppealDecision, string>> = { approve: 'Approved', partial: 'Approved in part', deny: 'Denied' };

/** The appeal's state in words: waiting, or how it was decided. */
export function appealStateWords(appeal: AppealView): string {
  if (appeal.status !== 'appeal_decided') return 'Waiting for a decision';
  return appeal.decision ? DECIDED_WORDS[appeal.decision] : 'Decided';
}

export function isOpen(appeal: AppealView): boolean {
  return appeal.status !== 'appeal_decided';
}

/** The decision's body from the form; null while no decision is chosen. An empty explanation is left out. */
export function decisionCommand(values: { decision: string; explanation: string }): AppealDecisionCommand | null {
  if (!Object.hasOwn(APPEAL_DECISION_LABELS, values.decision)) return null;
  const explanation = values.explanation.trim();
  return { decision: values.decision as AppealDecision, ...(explanation ? { explanation } : {}) };
}
