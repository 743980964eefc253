import { CLOSED_STATUSES, type LifecycleAction, LIFECYCLE_ACTIONS, OPEN_STATUSES, type RequestStatus } from '@dsar/contracts';

/** What the machine looks at: the status, and the two facts that gate actions beyond it. */
export interface LifecycleState {
  readonly status: RequestStatus;
  /** Whether the requester has been told of receipt (an acknowledgement happens once). */
  readonly acknowledged: boolean;
  /** The authority evidence's status, when there is any. */
  readonly authorityStatus: string | null;
  /** Whether an appeal waits for its decision (one at a time). */
  readonly appealOpen: boolean;
}

interface Rule {
  /** The statuses the action is allowed in. */
  readonly from: readonly RequestStatus[];
  /** The status it leads to; absent when the status stays. */
  readonly to?: RequestStatus;
  /** A further condition on the state. */
  readonly when?: (state: LifecycleState) => boolean;
}

const OPEN: readonly RequestStatus[] = OPEN_STATUSES;
const CLOSED: readonly RequestStatus[] = CLOSED_STATUSES;
const authoritySubmitted = (s: LifecycleState) => s.authorityStatus === 'submitted';

/**
 * The request workflow, in one table (docs/lifecycle.md draws it). Every
 * command of lifecycle-clock asks this table first; nothing else decides
 * whether a request may move.
 */
export const LIFECYCLE_RULES: Readonly<Record<LifecycleAction, Rule>> = {
  // Once per request; a received request starts being worked on, the others keep their status.
  acknowledge: { from: OPEN, when: (s) => !s.acknowledged },
  request_clarification: { from: ['received', 'in_progress'], to: 'clarification_pending' },
  receive_clarification: { from: ['clarification_pending'], to: 'in_progress' },
  request_verification: { from: ['received', 'in_progress', 'clarification_pending'], to: 'verification_pending' },
  approve_verification: { from: ['verification_pending'], to: 'in_progress' },
  reject_verification: { from: ['verification_pending'], to: 'refused' },
  fulfil: { from: ['in_progress'], to: 'fulfilled' },
  refuse: { from: OPEN, to: 'refused' },
  close: { from: [...OPEN, 'fulfilled', 'refused'], to: 'closed' },
  replace_requestor: { from: OPEN },
  submit_authority: { from: OPEN },
  approve_authority: { from: OPEN, when: authoritySubmitted },
  reject_authority: { from: OPEN, when: authoritySubmitted },
  extend_deadline: { from: OPEN },
  pause_clock: { from: OPEN },
  resume_clock: { from: OPEN },
  appeal: { from: CLOSED, when: (s) => !s.appealOpen },
  decide_appeal: { from: CLOSED, when: (s) => s.appealOpen },
};

/** The status an approved appeal reopens a request in. */
export const REOPENED_STATUS: RequestStatus = 'in_progress';

/** The actions the state allows, in the catalog's order. */
export function allowedActions(state: LifecycleState): LifecycleAction[] {
  return LIFECYCLE_ACTIONS.filter((action) => isAllowed(state, action));
}

export function isAllowed(state: LifecycleState, action: LifecycleAction): boolean {
  const rule = LIFECYCLE_RULES[action];
  return rule.from.includes(state.status) && (rule.when?.(state) ?? true);
}

/** Where the action leads from this state; the caller checked `isAllowed`. */
export function nextStatus(state: LifecycleState, action: LifecycleAction): RequestStatus {
  if (action === 'acknowledge') return state.status === 'received' ? 'in_progress' : state.status;
  return LIFECYCLE_RULES[action].to ?? state.status;
}
