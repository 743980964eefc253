import { missingTaskFields, offeredTaskActions, taskActionBody, taskActionsIn } from './tasks';

const NOW = new Date('2025-03-10T12:00:00.000Z');

describe('operator actions on a task', () => {
  it('offers what each state allows, as the service decides it', () => {
    expect(taskActionsIn('queued')).toEqual(['skip', 'complete']);
    expect(taskActionsIn('claimed')).toEqual(['skip', 'complete']);
    expect(taskActionsIn('error')).toEqual(['retry', 'skip', 'complete']);
    expect(taskActionsIn('action_required')).toEqual(['retry', 'skip', 'complete']);
    expect(taskActionsIn('blocked')).toEqual(['retry', 'skip', 'complete']);
    expect(taskActionsIn('skipped')).toEqual(['retry']);
    expect(taskActionsIn('complete')).toEqual([]);
    expect(taskActionsIn('not_found')).toEqual([]);
    expect(taskActionsIn('cancelled')).toEqual([]);
  });

  it('offers nothing to a caller without requests:act', () => {
    expect(offeredTaskActions({ state: 'error' }, ['requests:read'])).toEqual([]);
    expect(offeredTaskActions({ state: 'error' }, ['requests:read', 'requests:act'])).toEqual(['retry', 'skip', 'complete']);
  });

  it('needs a reason to skip, evidence to mark done, and the erasure facts of an erasure', () => {
    expect(missingTaskFields('retry', 'access', {})).toEqual([]);
    expect(missingTaskFields('skip', 'access', { reason: '  ' })).toEqual(['reason']);
    expect(missingTaskFields('complete', 'access', { outcome: 'complete' })).toEqual(['evidence']);
    expect(missingTaskFields('complete', 'erasure', { outcome: 'complete', evidence: 'Ticket 7' })).toEqual(['recordsAffected', 'performedBy']);
    expect(missingTaskFields('complete', 'erasure', { outcome: 'not_found', evidence: 'Ticket 7' })).toEqual([]);
    expect(missingTaskFields('complete', 'erasure', { evidence: 'T', recordsAffected: '3', performedBy: 'Sam', erasureResult: 'exception' })).toEqual(['exceptionReason']);
    expect(missingTaskFields('complete', 'erasure', { evidence: 'T', recordsAffected: '-3', performedBy: 'Sam' })).toEqual(['recordsAffected']);
  });

  it('builds the bodies of retry, skip and mark done', () => {
    expect(taskActionBody('retry', 'access', { reason: ' ' }, NOW)).toEqual({});
    expect(taskActionBody('retry', 'access', { reason: ' fixed the CRM ' }, NOW)).toEqual({ reason: 'fixed the CRM' });
    expect(taskActionBody('skip', 'access', { reason: 'Not used for customers' }, NOW)).toEqual({ reason: 'Not used for customers' });
    expect(taskActionBody('complete', 'access', { outcome: 'not_found', evidence: 'Searched by hand' }, NOW)).toEqual({ outcome: 'not_found', evidence: 'Searched by hand' });
  });

  it('adds the erasure confirmation to an erasure marked done, now when no time was given', () => {
    const body = taskActionBody(
      'complete',
      'erasure',
      { outcome: 'complete', evidence: 'Ticket 9', erasureResult: 'erased', erasureMethod: 'anonymise', recordsAffected: '12', categoriesErased: 'orders, , contact_details', performedBy: 'Sam' },
      NOW,
    );
    expect(body).toEqual({
      outcome: 'complete',
      evidence: 'Ticket 9',
      erasure: { result: 'erased', recordsAffected: 12, categoriesErased: ['orders', 'contact_details'], method: 'anonymise', performedBy: 'Sam', performedAt: NOW.toISOString() },
    });
  });
});
