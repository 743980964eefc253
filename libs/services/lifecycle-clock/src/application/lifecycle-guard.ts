import type { LifecycleAction, RequestStatus } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { allowedActions, isAllowed, type LifecycleState } from '../domain/lifecycle/state-machine';
import { duplicateMarkOf } from '../domain/duplicate-mark';
import type { RequestEntity } from '../infrastructure/request.entity';

/** What the state machine needs to know about a stored request. */
export function lifecycleStateOf(row: RequestEntity): LifecycleState {
  return {
    status: row.status as RequestStatus,
    acknowledged: row.acknowledgedAt !== null,
    authorityStatus: row.authority?.status ?? null,
    appealOpen: row.openAppealId !== null,
    duplicateMarked: row.duplicateState === 'marked',
  };
}

/**
 * Refuses an action the request's state does not allow, with 409
 * `LIFECYCLE_TRANSITION_DISALLOWED` naming the status and what is allowed.
 * Every command on a request calls this on the locked row before it changes anything.
 */
export function requireAllowed(row: RequestEntity, action: LifecycleAction): void {
  const state = lifecycleStateOf(row);
  if (isAllowed(state, action)) return;
  if ((action === 'approve_authority' || action === 'reject_authority') && isAllowed({ ...state, authorityStatus: 'submitted' }, action)) {
    const current = state.authorityStatus ?? 'none';
    throw new ProblemError('AUTHORITY_NOT_SUBMITTED', `Request ${row.id} has authority evidence in status '${current}': only submitted evidence can be approved or rejected.`, undefined, {
      authorityStatus: state.authorityStatus,
    });
  }
  if (action === 'appeal' && isAllowed({ ...state, appealOpen: false }, action)) {
    throw new ProblemError('APPEAL_ALREADY_OPEN', `Request ${row.id} has an appeal waiting for its decision (${row.openAppealId}).`, undefined, { appealId: row.openAppealId });
  }
  // A mark already decided (a confirmed one also refused the request) or never made says so, whatever the status.
  if (action === 'resolve_duplicate' && !state.duplicateMarked) {
    const duplicate = duplicateMarkOf(row);
    const why = duplicate === null ? 'intake did not mark it as a duplicate' : `its duplicate mark was already decided (${duplicate.state})`;
    throw new ProblemError('DUPLICATE_NOT_MARKED', `Request ${row.id} is not waiting for a duplicate decision: ${why}.`, undefined, { duplicate });
  }
  const allowed = allowedActions(state);
  const why = action === 'acknowledge' && state.acknowledged ? ` (it was acknowledged at ${row.acknowledgedAt?.toISOString()})` : '';
  throw new ProblemError(
    'LIFECYCLE_TRANSITION_DISALLOWED',
    `Request ${row.id} is ${state.status}: ${action} is not allowed${why}. Allowed actions: ${allowed.length > 0 ? allowed.join(', ') : 'none'}.`,
    undefined,
    { currentStatus: state.status, action, allowedActions: allowed },
  );
}
