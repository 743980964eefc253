import { taskStatsOf } from './task-stats-view';

describe('the figures of the tasks as the API answers them', () => {
  const asOf = new Date('2026-03-10T15:00:00.000Z');

  it('names every state, a missing one as zero, sums the open ones and the systems past due', () => {
    const figures = taskStatsOf(
      {
        byState: { queued: 4, claimed: 1, action_required: 2, complete: 7, skipped: 1 },
        pastDue: [
          { systemKey: 'crm', displayName: 'Customer CRM', deleted: false, count: 2, oldestDueAt: new Date('2026-03-09T13:00:00.000Z') },
          { systemKey: 'legacy-shop', displayName: null, deleted: true, count: 1, oldestDueAt: new Date('2026-03-10T14:00:00.000Z') },
        ],
      },
      asOf,
    );
    expect(figures).toEqual({
      asOf: '2026-03-10T15:00:00.000Z',
      byState: { waiting: 0, queued: 4, claimed: 1, complete: 7, not_found: 0, skipped: 1, error: 0, action_required: 2, blocked: 0, cancelled: 0 },
      open: 7,
      pastDue: {
        count: 3,
        systems: [
          { systemKey: 'crm', displayName: 'Customer CRM', deleted: false, count: 2, oldestDueAt: '2026-03-09T13:00:00.000Z' },
          // A system the registry holds no definition of goes by its key.
          { systemKey: 'legacy-shop', displayName: 'legacy-shop', deleted: true, count: 1, oldestDueAt: '2026-03-10T14:00:00.000Z' },
        ],
      },
    });
  });

  it('answers a tenant without tasks with zeros and no system', () => {
    const figures = taskStatsOf({ byState: {}, pastDue: [] }, asOf);
    expect(figures.open).toBe(0);
    expect(Object.values(figures.byState).every((n) => n === 0)).toBe(true);
    expect(figures.pastDue).toEqual({ count: 0, systems: [] });
  });
});
