import { statsWindowsOf } from '../domain/request-windows';
import { requestStatsOf } from './stats-view';

describe("the tenant's figures as the API answers them", () => {
  const windows = statsWindowsOf(new Date('2026-03-10T12:00:00.000Z'), 45);

  it('names every open status, a missing one as zero, sums them, and gives each span its instants', () => {
    const figures = requestStatsOf({ byStatus: { received: 3, in_progress: 5 }, atRisk: 4, overdue: 1, dueThisWeek: 3, overdueThisWeek: 1, decided: 2, medianSeconds: 302_400 }, windows);
    expect(figures).toEqual({
      asOf: '2026-03-10T12:00:00.000Z',
      open: { total: 8, byStatus: { received: 3, in_progress: 5, clarification_pending: 0, verification_pending: 0 } },
      atRisk: { days: 7, count: 4 },
      overdue: { count: 1 },
      dueThisWeek: { from: '2026-03-10T12:00:00.000Z', to: '2026-03-17T12:00:00.000Z', count: 3 },
      overdueThisWeek: { from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', count: 1 },
      timeToClose: { windowDays: 45, from: '2026-01-24T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', closed: 2, medianSeconds: 302_400 },
    });
  });

  it('leaves out the counts of statuses that are not open, and keeps a window without decisions as null', () => {
    const figures = requestStatsOf({ byStatus: { closed: 9 }, atRisk: 0, overdue: 0, dueThisWeek: 0, overdueThisWeek: 0, decided: 0, medianSeconds: null }, windows);
    expect(figures.open).toEqual({ total: 0, byStatus: { received: 0, in_progress: 0, clarification_pending: 0, verification_pending: 0 } });
    expect(figures.timeToClose.medianSeconds).toBeNull();
  });
});
