import { LIFECYCLE_RULES, type LifecycleAction, type LifecycleState, type RequestStatus } from '@dsar/contracts';

// The rules live in contracts, so that every service that refuses a step names the same allowed actions; every
// command of lifecycle-clock asks them first, and nothing else decides whether a request may move.
export { allowedActions, isAllowed, LIFECYCLE_RULES, type LifecycleState } from '@dsar/contracts';

/** The status an approved appeal reopens a request in. */
export const REOPENED_STATUS: RequestStatus = 'in_progress';

/** Where the action leads from this state; the caller checked `isAllowed`. */
export function nextStatus(state: LifecycleState, action: LifecycleAction): RequestStatus {
  if (action === 'acknowledge') return state.status === 'received' ? 'in_progress' : state.status;
  return LIFECYCLE_RULES[action].to ?? state.status;
}
