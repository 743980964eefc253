import { answerLines, missingTaskFields, offeredTaskActions, taskActionBody, taskActionsIn } from './tasks';

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

  it("puts a system's answer in words: the erasure's confirmation, then its note", () => {
    const erased = {
      outcome: 'complete' as const,
      note: '1 customer and 1 order deleted',
      erasure: { result: 'erased' as const, recordsAffected: 2, categoriesErased: ['contact_details', 'orders'], method: 'delete' as const, performedBy: 'shop job 7', performedAt: NOW.toISOString() },
    };
    expect(answerLines(erased)).toEqual(['Erased: 2 records deleted (contact_details, orders) by shop job 7', '1 customer and 1 order deleted']);
    const partial = {
      outcome: 'complete' as const,
      erasure: { ...erased.erasure, result: 'partially_erased' as const, recordsAffected: 1, categoriesErased: [], method: 'anonymise' as const, exceptionReason: 'invoices are kept for tax law' },
    };
    expect(answerLines(partial)).toEqual(['Partially erased: 1 record anonymised by shop job 7; not erased: invoices are kept for tax law']);
    expect(answerLines({ outcome: 'not_found', note: 'no customer with these identities' })).toEqual(['no customer with these identities']);
    expect(answerLines({ outcome: 'action_required', message: 'A legal hold: may we erase?' })).toEqual(['A legal hold: may we erase?']);
    expect(answerLines({ outcome: 'skipped', reason: 'Not used for customers' })).toEqual(['Not used for customers']);
    // An error is shown as the task's last error, not twice; no answer yet says nothing.
    expect(answerLines({ outcome: 'error', retryable: true, message: 'timeout' })).toEqual([]);
    expect(answerLines(null)).toEqual([]);
  });
});
