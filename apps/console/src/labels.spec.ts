import { ACTION_LABELS, keysOf, labelOf, STATUS_LABELS } from './labels';

describe('the words for the API codes', () => {
  it('lists the statuses in the order of the contracts', () => {
    expect(keysOf(STATUS_LABELS)).toEqual(['received', 'in_progress', 'clarification_pending', 'verification_pending', 'fulfilled', 'refused', 'closed']);
  });

  it('names a code it knows, and spells out one newer than the console', () => {
    expect(labelOf(ACTION_LABELS, 'extend_deadline')).toBe('Extend deadline');
    expect(labelOf(ACTION_LABELS, 'archive_forever')).toBe('archive forever');
    expect(labelOf(ACTION_LABELS, 'toString')).toBe('toString');
  });
});
