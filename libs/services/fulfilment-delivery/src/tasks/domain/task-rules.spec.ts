import type { RequestDetail } from '@dsar/contracts';
import { expectLinearGrowth } from '@dsar/platform/test-measure';
import {
  answerMisfit,
  dependantsOf,
  emailOf,
  identitiesFor,
  identitiesOf,
  operatorActionsIn,
  phoneOf,
  sameAnswer,
  startState,
  stateAfterAnswer,
  type TaskNode,
  taskDueAt,
  toBlock,
  toStart,
  toUnblock,
} from './task-rules';
import { newTaskToken, tokenMatches, tokenSha256 } from './task-token';

type Detail = Pick<RequestDetail, 'requestor' | 'intakeSource'>;
const detail = (over: { email?: string; contact?: string; evidence?: Array<{ type: string; reference?: string }> } = {}): Detail => ({
  requestor: { type: 'subject', ...(over.email ? { email: over.email } : {}) },
  intakeSource: {
    channel: 'email',
    rawText: 'Send me my data',
    receivedAt: '2026-01-01T00:00:00.000Z',
    ...(over.contact ? { contact: over.contact } : {}),
    ...(over.evidence ? { sourceEvidence: over.evidence } : {}),
  },
});

describe('identities of a request', () => {
  it('takes the requestor email, a contact that is an email or a phone number, and account ids of the evidence', () => {
    const all = identitiesOf(
      detail({
        email: 'jane@example.org',
        contact: '+44 (20) 7946-0958',
        evidence: [{ type: 'account_id', reference: 'cust-42' }, { type: 'id_document', reference: 'doc-1' }, { type: 'account_id' }],
      }),
    );
    expect(all).toEqual([
      { type: 'email', value: 'jane@example.org' },
      { type: 'phone', value: '+442079460958' },
      { type: 'account_id', value: 'cust-42' },
    ]);
  });

  it('does not repeat an email given twice (case aside), and takes a contact email besides another', () => {
    expect(identitiesOf(detail({ email: 'Jane@Example.org', contact: 'jane@example.org' }))).toEqual([{ type: 'email', value: 'Jane@Example.org' }]);
    expect(identitiesOf(detail({ email: 'a@example.org', contact: ' b@example.org ' }))).toEqual([
      { type: 'email', value: 'a@example.org' },
      { type: 'email', value: 'b@example.org' },
    ]);
  });

  it('finds none in a contact that is neither an address nor a number', () => {
    expect(identitiesOf(detail({ contact: 'call me at home' }))).toEqual([]);
    expect(emailOf('jane@localhost')).toBeNull();
    expect(emailOf('a@b@example.org')).toBeNull();
    expect(phoneOf('12345')).toBeNull();
    expect(phoneOf('+1 555 0100 200')).toBe('+15550100200');
    expect(phoneOf('1'.repeat(16))).toBeNull();
  });

  it('checks long hostile contacts in linear time', () => {
    expectLinearGrowth((n) => `${'a'.repeat(n)}@${'.'.repeat(n)}`, emailOf, 12_500);
    expectLinearGrowth((n) => `+${'1 '.repeat(n)}x`, phoneOf, 12_500);
  });

  it('gives a system only the types it registered', () => {
    const all = identitiesOf(detail({ email: 'jane@example.org', evidence: [{ type: 'account_id', reference: 'c-1' }] }));
    expect(identitiesFor(all, ['account_id'])).toEqual([{ type: 'account_id', value: 'c-1' }]);
    expect(identitiesFor(all, ['phone'])).toEqual([]);
  });
});

describe('the start of a task', () => {
  const tasks = (...nodes: TaskNode[]) => new Map(nodes.map((n) => [n.id, n]));
  it('is queued without dependencies, waiting while one is unfinished or its system is paused', () => {
    expect(startState([], tasks(), false)).toEqual({ state: 'queued' });
    expect(startState([], tasks(), true)).toEqual({ state: 'waiting' });
    const t = tasks({ id: 'a', state: 'claimed', dependsOn: [] }, { id: 'b', state: 'complete', dependsOn: [] });
    expect(startState(['a', 'b'], t, false)).toEqual({ state: 'waiting' });
    expect(startState(['b'], t, false)).toEqual({ state: 'queued' });
  });

  it('is blocked by a failed dependency, or by the blocker of a blocked one', () => {
    const t = tasks({ id: 'a', state: 'error', dependsOn: [] }, { id: 'b', state: 'blocked', dependsOn: ['a'], blockedBy: 'a' }, { id: 'c', state: 'cancelled', dependsOn: [] });
    expect(startState(['a'], t, false)).toEqual({ state: 'blocked', blockedBy: 'a' });
    expect(startState(['b'], t, false)).toEqual({ state: 'blocked', blockedBy: 'a' });
    expect(startState(['c'], t, false)).toEqual({ state: 'blocked', blockedBy: 'c' });
  });

  it('does not wait for a dependency that has no task', () => {
    expect(startState(['gone'], tasks(), false)).toEqual({ state: 'queued' });
  });
});

describe('dependants', () => {
  // warehouse after crm; reports after warehouse; billing after crm and erp.
  const graph: TaskNode[] = [
    { id: 'crm', state: 'complete', dependsOn: [] },
    { id: 'erp', state: 'claimed', dependsOn: [] },
    { id: 'warehouse', state: 'waiting', dependsOn: ['crm'] },
    { id: 'reports', state: 'waiting', dependsOn: ['warehouse'] },
    { id: 'billing', state: 'waiting', dependsOn: ['crm', 'erp'] },
  ];

  it('starts the direct waiting dependants whose every dependency finished', () => {
    expect(toStart('crm', graph).map((t) => t.id)).toEqual(['warehouse']);
    expect(toStart('erp', graph)).toEqual([]);
    const erpDone = graph.map((t) => (t.id === 'erp' ? { ...t, state: 'not_found' as const } : t));
    expect(toStart('erp', erpDone).map((t) => t.id)).toEqual(['billing']);
  });

  it('blocks every waiting task after a failed one, directly or not, and leaves settled ones', () => {
    const failed = graph.map((t) => (t.id === 'crm' ? { ...t, state: 'error' as const } : t.id === 'billing' ? { ...t, state: 'complete' as const } : t));
    expect(dependantsOf('crm', failed).map((t) => t.id)).toEqual(['warehouse', 'billing', 'reports']);
    expect(toBlock('crm', failed).map((t) => t.id)).toEqual(['warehouse', 'reports']);
  });

  it('unblocks the tasks a retried task blocked', () => {
    const blocked: TaskNode[] = [
      { id: 'a', state: 'error', dependsOn: [] },
      { id: 'b', state: 'blocked', dependsOn: ['a'], blockedBy: 'a' },
      { id: 'c', state: 'blocked', dependsOn: ['b'], blockedBy: 'a' },
      { id: 'd', state: 'blocked', dependsOn: ['x'], blockedBy: 'x' },
    ];
    expect(toUnblock('a', blocked).map((t) => t.id)).toEqual(['b', 'c']);
  });
});

describe('answers', () => {
  it('leave the task in the state they name; a retryable error queues it again while attempts are left', () => {
    expect(stateAfterAnswer({ outcome: 'complete' }, 1, 5)).toBe('complete');
    expect(stateAfterAnswer({ outcome: 'not_found' }, 1, 5)).toBe('not_found');
    expect(stateAfterAnswer({ outcome: 'skipped', reason: 'n/a' }, 1, 5)).toBe('skipped');
    expect(stateAfterAnswer({ outcome: 'action_required', message: 'legal hold?' }, 1, 5)).toBe('action_required');
    expect(stateAfterAnswer({ outcome: 'error', retryable: true, message: 'db down' }, 4, 5)).toBe('queued');
    expect(stateAfterAnswer({ outcome: 'error', retryable: true, message: 'db down' }, 5, 5)).toBe('error');
    expect(stateAfterAnswer({ outcome: 'error', retryable: false, message: 'schema' }, 1, 5)).toBe('error');
  });

  it('must fit the task: an erasure completes with its confirmation, another action takes none', () => {
    const erasure = { result: 'erased', recordsAffected: 3, categoriesErased: ['orders'], method: 'delete', performedBy: 'job', performedAt: '2026-01-01T00:00:00.000Z' };
    expect(answerMisfit('erasure', { outcome: 'complete' })).toMatch(/erasure confirmation/);
    expect(answerMisfit('erasure', { outcome: 'complete', erasure })).toBeNull();
    expect(answerMisfit('erasure', { outcome: 'not_found' })).toBeNull();
    expect(answerMisfit('access', { outcome: 'complete', erasure })).toMatch(/takes no erasure/);
    expect(answerMisfit('access', { outcome: 'complete' })).toBeNull();
    // A confirmation that not all was erased says why.
    expect(answerMisfit('erasure', { outcome: 'complete', erasure: { ...erasure, result: 'exception' } })).toMatch(/exceptionReason/);
    expect(answerMisfit('erasure', { outcome: 'complete', erasure: { ...erasure, result: 'partially_erased' } })).toMatch(/exceptionReason/);
    expect(answerMisfit('erasure', { outcome: 'complete', erasure: { ...erasure, result: 'exception', exceptionReason: 'A legal hold.' } })).toBeNull();
  });

  it('are the same whatever the order of their keys, and differ by any value', () => {
    expect(sameAnswer({ outcome: 'complete', note: 'x' }, { note: 'x', outcome: 'complete' })).toBe(true);
    expect(sameAnswer({ outcome: 'complete', note: undefined }, { outcome: 'complete' })).toBe(true);
    expect(sameAnswer({ outcome: 'complete', note: 'x' }, { outcome: 'complete', note: 'y' })).toBe(false);
    expect(sameAnswer({ outcome: 'complete' }, { outcome: 'not_found' })).toBe(false);
  });
});

describe('operator actions', () => {
  it('retry what failed, waits for a decision, was skipped or is blocked; skip or complete what is not settled', () => {
    expect(operatorActionsIn('error')).toEqual(['retry', 'skip', 'complete']);
    expect(operatorActionsIn('action_required')).toEqual(['retry', 'skip', 'complete']);
    expect(operatorActionsIn('blocked')).toEqual(['retry', 'skip', 'complete']);
    expect(operatorActionsIn('skipped')).toEqual(['retry']);
    expect(operatorActionsIn('queued')).toEqual(['skip', 'complete']);
    expect(operatorActionsIn('claimed')).toEqual(['skip', 'complete']);
    expect(operatorActionsIn('waiting')).toEqual(['skip', 'complete']);
    expect(operatorActionsIn('complete')).toEqual([]);
    expect(operatorActionsIn('not_found')).toEqual([]);
    expect(operatorActionsIn('cancelled')).toEqual([]);
  });
});

describe('due dates', () => {
  it('are the expected hours after now, never after the legal due date', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    expect(taskDueAt(now, 72, new Date('2026-02-01T00:00:00.000Z'))).toEqual(new Date('2026-01-04T00:00:00.000Z'));
    expect(taskDueAt(now, 72, new Date('2026-01-02T00:00:00.000Z'))).toEqual(new Date('2026-01-02T00:00:00.000Z'));
  });
});

describe('task tokens', () => {
  it('are dtt_ and 43 base64url characters, new each time, matched by their hash only', () => {
    const a = newTaskToken();
    const b = newTaskToken();
    expect(a).toMatch(/^dtt_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(tokenMatches(a, tokenSha256(a))).toBe(true);
    expect(tokenMatches(b, tokenSha256(a))).toBe(false);
    expect(tokenMatches(undefined, tokenSha256(a))).toBe(false);
    expect(tokenMatches(a, null)).toBe(false);
    expect(tokenMatches('not a token', tokenSha256('not a token'))).toBe(false);
  });
});
