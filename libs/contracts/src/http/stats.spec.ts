import { CLOSE_WINDOW_DAYS, requestStats, requestStatsQuery, taskStats } from './stats';
import { OPEN_STATUSES } from './requests';
import { TASK_STATES } from './tasks';

describe("the tenant's figures", () => {
  it('take a window of 1 to 366 days, as a whole number without leading zeros, and no other parameter', () => {
    expect(requestStatsQuery.parse({})).toEqual({});
    expect(requestStatsQuery.parse({ windowDays: '1' })).toEqual({ windowDays: 1 });
    expect(requestStatsQuery.parse({ windowDays: String(CLOSE_WINDOW_DAYS.max) })).toEqual({ windowDays: 366 });
    for (const windowDays of ['0', '367', '030', '7.5', '-1', 'week', '']) expect({ windowDays, ok: requestStatsQuery.safeParse({ windowDays }).success }).toEqual({ windowDays, ok: false });
    expect(requestStatsQuery.safeParse({ days: '7' }).success).toBe(false);
  });

  it('name every open status and every task state in their counts', () => {
    expect(Object.keys(requestStats.shape.open.shape.byStatus.shape)).toEqual([...OPEN_STATUSES]);
    expect(Object.keys(taskStats.shape.byState.shape)).toEqual([...TASK_STATES]);
    const counts = Object.fromEntries(OPEN_STATUSES.map((s) => [s, 1]));
    const { received: _left, ...missing } = counts;
    const figures = (byStatus: Record<string, number>) => ({
      asOf: '2026-03-10T12:00:00.000Z',
      open: { total: 4, byStatus },
      atRisk: { days: 7, count: 0 },
      overdue: { count: 0 },
      dueThisWeek: { from: '2026-03-10T12:00:00.000Z', to: '2026-03-17T12:00:00.000Z', count: 0 },
      overdueThisWeek: { from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', count: 0 },
      timeToClose: { windowDays: 30, from: '2026-02-08T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', closed: 0, medianSeconds: null },
    });
    expect(requestStats.safeParse(figures(counts)).success).toBe(true);
    expect(requestStats.safeParse(figures(missing)).success).toBe(false);
  });
});
