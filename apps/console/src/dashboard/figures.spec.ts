import type { RequestStats, TaskStats } from '@dsar/contracts';
import { viewFromSearch } from '../queue/view-state';
import { allOpenHref, countOf, deadlineFigures, durationText, openFigures, overdueBy, pastDueRows, queueHref, taskFigures, timeToCloseText } from './figures';

const STATS: RequestStats = {
  asOf: '2026-03-10T12:00:00.000Z',
  open: { total: 6, byStatus: { received: 2, in_progress: 2, clarification_pending: 1, verification_pending: 1 } },
  atRisk: { days: 7, count: 4 },
  overdue: { count: 2 },
  dueThisWeek: { from: '2026-03-10T12:00:00.000Z', to: '2026-03-17T12:00:00.000Z', count: 2 },
  overdueThisWeek: { from: '2026-03-03T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', count: 0 },
  timeToClose: { windowDays: 30, from: '2026-02-08T12:00:00.000Z', to: '2026-03-10T12:00:00.000Z', closed: 5, medianSeconds: 5 * 86_400 },
};

const TASKS: TaskStats = {
  asOf: '2026-03-10T15:00:00.000Z',
  byState: { waiting: 0, queued: 8, claimed: 0, complete: 0, not_found: 0, skipped: 1, error: 0, action_required: 0, blocked: 0, cancelled: 0 },
  open: 8,
  pastDue: {
    count: 5,
    systems: [
      { systemKey: 'crm', displayName: 'Customer CRM', deleted: false, count: 2, oldestDueAt: '2026-03-10T13:00:00.000Z' },
      { systemKey: 'old-shop', displayName: 'Old shop', deleted: true, count: 3, oldestDueAt: '2026-03-07T14:30:00.000Z' },
    ],
  },
};

const isoDate = (iso: string) => iso.slice(0, 10);

describe("the dashboard's figures", () => {
  it('writes a duration in days and hours, to the nearest hour', () => {
    expect(durationText(5 * 86_400)).toBe('5 days 0 hours');
    expect(durationText(6.5 * 86_400)).toBe('6 days 12 hours');
    expect(durationText(86_400 + 3 * 3600 + 1799)).toBe('1 day 3 hours');
    expect(durationText(86_400 + 23 * 3600 + 1800)).toBe('2 days 0 hours');
    expect(durationText(3600)).toBe('1 hour');
    expect(durationText(7 * 3600)).toBe('7 hours');
    expect(durationText(1799)).toBe('less than an hour');
  });

  it('says what the median time to close was taken over, or that nothing was closed', () => {
    expect(timeToCloseText(STATS)).toEqual({ figure: '5 days 0 hours', detail: 'Median over 5 closed requests in the last 30 days, from receipt to decision' });
    const one = { ...STATS, timeToClose: { ...STATS.timeToClose, windowDays: 1, closed: 1, medianSeconds: 3 * 3600 } };
    expect(timeToCloseText(one)).toEqual({ figure: '3 hours', detail: 'Median over 1 closed request in the last 1 day, from receipt to decision' });
    const none = { ...STATS, timeToClose: { ...STATS.timeToClose, closed: 0, medianSeconds: null } };
    expect(timeToCloseText(none)).toEqual({ figure: 'No figure', detail: 'No request was closed in the last 30 days' });
  });

  it('links each open status to the queue of that status, and the total to the queue of every open status', () => {
    const figures = openFigures(STATS);
    expect(figures.map((f) => [f.label, f.count, f.href])).toEqual([
      ['Received', 2, '/console/requests?status=received'],
      ['In progress', 2, '/console/requests?status=in_progress'],
      ['Waiting for clarification', 1, '/console/requests?status=clarification_pending'],
      ['Waiting for verification', 1, '/console/requests?status=verification_pending'],
    ]);
    expect(viewFromSearch(new URL(allOpenHref(STATS), 'http://console.test').search).status).toEqual(['received', 'in_progress', 'clarification_pending', 'verification_pending']);
  });

  it("links at risk and overdue to the queue's views of them, most urgent first; the week's spans have no queue view", () => {
    const [atRisk, overdue, dueThisWeek, overdueThisWeek] = deadlineFigures(STATS, isoDate);
    expect(viewFromSearch(new URL(atRisk.href!, 'http://console.test').search)).toMatchObject({ atRiskDays: 7, overdue: false, sortBy: 'dueAt', sortOrder: 'asc' });
    expect(viewFromSearch(new URL(overdue.href!, 'http://console.test').search)).toMatchObject({ overdue: true, sortBy: 'dueAt', sortOrder: 'asc' });
    expect(atRisk).toMatchObject({ count: 4, label: 'At risk', detail: 'Due within 7 days, overdue ones included', alert: true });
    expect(overdue).toMatchObject({ count: 2, label: 'Overdue', alert: true });
    expect(dueThisWeek).toEqual({ key: 'due-this-week', count: 2, label: 'Due this week', detail: 'Not overdue yet, due by 2026-03-17', alert: false });
    expect(overdueThisWeek).toEqual({ key: 'overdue-this-week', count: 0, label: 'Overdue since this week', detail: 'Became overdue after 2026-03-03', alert: false });
  });

  it('builds a queue address from filters, the defaults left out', () => {
    expect(queueHref({})).toBe('/console/requests');
    expect(queueHref({ status: ['received'], sortBy: 'receivedAt', sortOrder: 'desc' })).toBe('/console/requests?status=received');
  });

  it('lists the systems with tasks past due, the longest overdue first as the API orders them, a deleted one named so', () => {
    expect(pastDueRows(TASKS)).toEqual([
      { systemKey: 'crm', name: 'Customer CRM', count: 2, oldestDueAt: '2026-03-10T13:00:00.000Z', overdueBy: 'overdue by 2 hours' },
      { systemKey: 'old-shop', name: 'Old shop (deleted)', count: 3, oldestDueAt: '2026-03-07T14:30:00.000Z', overdueBy: 'overdue by 3 days 1 hour' },
    ]);
    expect(taskFigures(TASKS).map((f) => [f.label, f.count, f.detail, f.alert])).toEqual([
      ['Open tasks', 8, 'Waiting, queued, being worked on, blocked or needing an operator', false],
      ['Past their due date', 5, 'At 2 data systems', true],
    ]);
    expect(overdueBy('2026-03-10T16:00:00.000Z', TASKS.asOf)).toBe('overdue by less than an hour');
  });

  it('counts in words, one or many', () => {
    expect(countOf(1, 'request', 'requests', 'en')).toBe('1 request');
    expect(countOf(12_000, 'request', 'requests', 'en')).toBe('12,000 requests');
    expect(countOf(0, 'request', 'requests', 'en')).toBe('0 requests');
  });
});
