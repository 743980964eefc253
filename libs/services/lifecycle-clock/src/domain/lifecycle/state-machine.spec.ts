import { LIFECYCLE_ACTIONS, type LifecycleAction, REQUEST_STATUSES, type RequestStatus } from '@dsar/contracts';
import { allowedActions, isAllowed, type LifecycleState, nextStatus } from './state-machine';

/**
 * The workflow of docs/lifecycle.md, written out by hand: for each status,
 * where each allowed action leads. An action missing from a row is refused.
 * (Acknowledgement is allowed once; authority review needs submitted
 * evidence; appeals need no open appeal: those facts are varied below.)
 */
const OPEN_STAYS = { replace_requestor: 'same', correct_request: 'same', submit_authority: 'same', extend_deadline: 'same', pause_clock: 'same', resume_clock: 'same' } as const;
const EXPECTED: Record<RequestStatus, Partial<Record<LifecycleAction, RequestStatus | 'same'>>> = {
  received: {
    acknowledge: 'in_progress',
    request_clarification: 'clarification_pending',
    request_verification: 'verification_pending',
    refuse: 'refused',
    close: 'closed',
    ...OPEN_STAYS,
  },
  in_progress: {
    acknowledge: 'same',
    request_clarification: 'clarification_pending',
    request_verification: 'verification_pending',
    fulfil: 'fulfilled',
    refuse: 'refused',
    close: 'closed',
    ...OPEN_STAYS,
  },
  clarification_pending: {
    acknowledge: 'same',
    receive_clarification: 'in_progress',
    request_verification: 'verification_pending',
    refuse: 'refused',
    close: 'closed',
    ...OPEN_STAYS,
  },
  verification_pending: {
    acknowledge: 'same',
    approve_verification: 'in_progress',
    reject_verification: 'refused',
    refuse: 'refused',
    close: 'closed',
    ...OPEN_STAYS,
  },
  fulfilled: { close: 'closed', replace_requestor: 'same', appeal: 'same' },
  refused: { close: 'closed', replace_requestor: 'same', appeal: 'same' },
  closed: { replace_requestor: 'same', appeal: 'same' },
};

const stateOf = (status: RequestStatus, facts: Partial<LifecycleState> = {}): LifecycleState => ({ status, acknowledged: false, authorityStatus: null, appealOpen: false, ...facts });

describe('the request state machine', () => {
  const pairs = REQUEST_STATUSES.flatMap((status) => LIFECYCLE_ACTIONS.map((action) => [status, action] as const));

  it.each(pairs)('%s + %s: allowed exactly when the table says, and leads where it says', (status, action) => {
    const expected = EXPECTED[status][action];
    const state = stateOf(status);
    expect(isAllowed(state, action)).toBe(expected !== undefined);
    if (expected !== undefined) expect(nextStatus(state, action)).toBe(expected === 'same' ? status : expected);
  });

  it('lists the allowed actions of a status in the catalog order', () => {
    expect(allowedActions(stateOf('refused'))).toEqual(['close', 'replace_requestor', 'appeal']);
    expect(allowedActions(stateOf('closed'))).toEqual(['replace_requestor', 'appeal']);
    expect(allowedActions(stateOf('verification_pending'))).toEqual([
      'acknowledge',
      'approve_verification',
      'reject_verification',
      'refuse',
      'close',
      'replace_requestor',
      'correct_request',
      'submit_authority',
      'extend_deadline',
      'pause_clock',
      'resume_clock',
    ]);
  });

  it('acknowledges a request once', () => {
    for (const status of ['received', 'in_progress', 'clarification_pending', 'verification_pending'] as const) {
      expect(isAllowed(stateOf(status, { acknowledged: true }), 'acknowledge')).toBe(false);
    }
  });

  it('reviews authority evidence only while it is submitted, and only on an open request', () => {
    for (const authorityStatus of [null, 'not_required', 'pending', 'verified', 'rejected']) {
      expect(isAllowed(stateOf('in_progress', { authorityStatus }), 'approve_authority')).toBe(false);
      expect(isAllowed(stateOf('in_progress', { authorityStatus }), 'reject_authority')).toBe(false);
    }
    expect(isAllowed(stateOf('in_progress', { authorityStatus: 'submitted' }), 'approve_authority')).toBe(true);
    expect(isAllowed(stateOf('received', { authorityStatus: 'submitted' }), 'reject_authority')).toBe(true);
    expect(isAllowed(stateOf('refused', { authorityStatus: 'submitted' }), 'approve_authority')).toBe(false);
  });

  it('takes one appeal at a time, and decides only an open one', () => {
    for (const status of ['fulfilled', 'refused', 'closed'] as const) {
      expect(isAllowed(stateOf(status, { appealOpen: true }), 'appeal')).toBe(false);
      expect(isAllowed(stateOf(status, { appealOpen: true }), 'decide_appeal')).toBe(true);
      expect(nextStatus(stateOf(status, { appealOpen: true }), 'decide_appeal')).toBe(status);
    }
    expect(isAllowed(stateOf('in_progress', { appealOpen: true }), 'decide_appeal')).toBe(false);
  });
});
