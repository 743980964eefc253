import { OPEN_STATUSES, type RequestStats, STATS_WEEK_DAYS } from '@dsar/contracts';
import type { CountedRequests } from '../application/request-stats';
import type { StatsWindows } from '../domain/request-windows';

/** The tenant's figures as `GET /stats/requests` answers them: every open status named (zero when none), and the spans they were counted over. */
export function requestStatsOf(counted: CountedRequests, windows: StatsWindows): RequestStats {
  const byStatus = Object.fromEntries(OPEN_STATUSES.map((status) => [status, counted.byStatus[status] ?? 0])) as RequestStats['open']['byStatus'];
  const asOf = windows.asOf.toISOString();
  return {
    asOf,
    open: { total: OPEN_STATUSES.reduce((sum, status) => sum + byStatus[status], 0), byStatus },
    atRisk: { days: STATS_WEEK_DAYS, count: counted.atRisk },
    overdue: { count: counted.overdue },
    dueThisWeek: { from: asOf, to: windows.weekAhead.toISOString(), count: counted.dueThisWeek },
    overdueThisWeek: { from: windows.weekAgo.toISOString(), to: asOf, count: counted.overdueThisWeek },
    timeToClose: {
      windowDays: windows.windowDays,
      from: windows.closedSince.toISOString(),
      to: asOf,
      closed: counted.decided,
      medianSeconds: counted.medianSeconds,
    },
  };
}
