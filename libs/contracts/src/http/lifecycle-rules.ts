import { LIFECYCLE_ACTIONS, type LifecycleAction } from './lifecycle';
import { CLOSED_STATUSES, OPEN_STATUSES, type RequestDetail, type RequestStatus } from './requests';

/**
 * The request workflow's rules: which action a request's state allows. lifecycle-clock decides every move by
 * them; the services that refuse a step of their own with `LIFECYCLE_TRANSITION_DISALLOWED` (fulfilment,
 * verification, delivery) name the same `allowedActions` from them, so a 409 lists the same actions whichever
 * service answers it.
 */

/** What the rules look at: the status, and the facts that gate actions beyond it. */
export interface LifecycleState {
  readonly status: RequestStatus;
  /** Whether the requester has been told of receipt (an acknowledgement happens once). */
  readonly acknowledged: boolean;
  /** The authority evidence's status, when there is any. */
  readonly authorityStatus: string | null;
  /** Whether an appeal waits for its decision (one at a time). */
  readonly appealOpen: boolean;
  /** Whether intake marked the request as a duplicate and no operator has decided yet; absent: not marked. */
  readonly duplicateMarked?: boolean;
}

export interface LifecycleRule {
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

/** The request workflow, in one table (docs/lifecycle.md draws it). */
export const LIFECYCLE_RULES: Readonly<Record<LifecycleAction, LifecycleRule>> = {
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
  // Contact details may be corrected after the decision too: a notice that found no address is sent again (docs/lifecycle.md).
  replace_requestor: { from: [...OPEN, ...CLOSED] },
  // The type or jurisdiction intake misread, while the request is open: a decided request's outcome stands.
  correct_request: { from: OPEN },
  // Deciding a duplicate mark, while it waits for it (docs/identity.md#duplicates); `confirmed` leads to `refused`.
  resolve_duplicate: { from: OPEN, when: (s) => s.duplicateMarked === true },
  submit_authority: { from: OPEN },
  approve_authority: { from: OPEN, when: authoritySubmitted },
  reject_authority: { from: OPEN, when: authoritySubmitted },
  extend_deadline: { from: OPEN },
  pause_clock: { from: OPEN },
  resume_clock: { from: OPEN },
  appeal: { from: CLOSED, when: (s) => !s.appealOpen },
  decide_appeal: { from: CLOSED, when: (s) => s.appealOpen },
};

export function isAllowed(state: LifecycleState, action: LifecycleAction): boolean {
  const rule = LIFECYCLE_RULES[action];
  return rule.from.includes(state.status) && (rule.when?.(state) ?? true);
}

/** The actions the state allows, in the catalog's order: a 409 `LIFECYCLE_TRANSITION_DISALLOWED` names them. */
export function allowedActions(state: LifecycleState): LifecycleAction[] {
  return LIFECYCLE_ACTIONS.filter((action) => isAllowed(state, action));
}

/** The state of a request as lifecycle-clock answers it (`RequestDetail`), for a service that has only that. */
export function lifecycleStateOfDetail(detail: Pick<RequestDetail, 'status' | 'acknowledgedAt' | 'authority' | 'appeals'> & Partial<Pick<RequestDetail, 'duplicate'>>): LifecycleState {
  return {
    duplicateMarked: detail.duplicate?.state === 'marked',
    status: detail.status,
    acknowledged: detail.acknowledgedAt !== null,
    authorityStatus: detail.authority?.status ?? null,
    appealOpen: detail.appeals.some((appeal) => appeal.status === 'appeal_submitted'),
  };
}

/** The actions lifecycle-clock allows the request it answered with `detail`: what its own 409 would name. */
export function allowedActionsOf(detail: Parameters<typeof lifecycleStateOfDetail>[0]): LifecycleAction[] {
  return allowedActions(lifecycleStateOfDetail(detail));
}
