import type { AppealView } from '@dsar/contracts';
import { appealStateWords, decisionCommand, isOpen } from './appeals';

const appeal = (over: Partial<AppealView> = {}): AppealView => ({
  id: '77777777-7777-4777-8777-777777777777',
  message: 'I think more data is held about me.',
  grounds: null,
  status: 'appeal_submitted',
  createdAt: '2026-06-01T09:00:00Z',
  dueAt: '2026-07-01T09:00:00Z',
  ...over,
});

describe('the appeals tab', () => {
  it('says whether an appeal waits and how it was decided', () => {
    expect([appealStateWords(appeal()), isOpen(appeal())]).toEqual(['Waiting for a decision', true]);
    const denied = appeal({ status: 'appeal_decided', decision: 'deny', decidedAt: '2026-06-05T09:00:00Z' });
    expect([appealStateWords(denied), isOpen(denied)]).toEqual(['Denied', false]);
    expect(appealStateWords(appeal({ status: 'appeal_decided', decision: 'partial' }))).toBe('Approved in part');
  });

  it('sends the decision, with the explanation only when one was written', () => {
    expect(decisionCommand({ decision: 'approve', explanation: '  We found more records.  ' })).toEqual({ decision: 'approve', explanation: 'We found more records.' });
    expect(decisionCommand({ decision: 'deny', explanation: '   ' })).toEqual({ decision: 'deny' });
    expect(decisionCommand({ decision: '', explanation: 'text' })).toBeNull();
    expect(decisionCommand({ decision: 'toString', explanation: '' })).toBeNull();
  });
});
