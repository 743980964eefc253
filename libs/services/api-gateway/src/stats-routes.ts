import { requestStats, requestStatsQuery, taskStats } from '@dsar/contracts';
import type { GatewayRoute } from './route-types';

/**
 * Public routes of the tenant's figures (the console's dashboard, `dsar stats`): the requests, counted by
 * lifecycle-clock (docs/lifecycle.md#figures), and the data-system tasks, counted by fulfilment-delivery
 * (docs/data-systems.md#figures). Each in the caller's scope: a caller confined to a workspace counts its own.
 */
export const STATS_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/stats/requests',
    service: 'lifecycle-clock',
    permission: 'requests:read',
    operationId: 'getRequestStats',
    summary: "Figures of the caller's requests: open by status, at risk, overdue, due this week, median time to close",
    description:
      'Counted by the database at one moment (`asOf`), with the queue\'s own definitions, so that each figure is the total of a queue view: open requests by status (`GET /requests?status=…`), at risk within 7 days, overdue ones included (`atRiskDays=7`), overdue (`atRiskDays=0`). "This week" is 7×24 hours of UTC: the open requests falling due after `asOf` up to `asOf` + 7 days, and those that became overdue after `asOf` − 7 days and are still open. The median time from receipt (`intakeSource.receivedAt`) to decision (fulfilled, refused or closed) is taken over the requests decided in the last `windowDays` days (default 30), with their count (docs/lifecycle.md#figures).',
    tag: 'Stats',
    query: requestStatsQuery,
    response: { status: 200, schema: requestStats, description: 'The figures.' },
    errors: ['REQUEST_VALIDATION_FAILED'],
  },
  {
    method: 'GET',
    path: '/stats/tasks',
    service: 'fulfilment-delivery',
    permission: 'requests:read',
    operationId: 'getTaskStats',
    summary: "Figures of the caller's data-system tasks: by state, and the open ones past their due date per system",
    description:
      "Counted by the database at one moment (`asOf`): every task of the caller's requests by state, and the open tasks (waiting, queued, claimed, action_required, blocked) past their due date (`dueAt`: the task's creation plus its system's `sla.expectedHours`, never after the request's legal due date) per data system, with the system's name and the due date of its longest overdue task (docs/data-systems.md#figures).",
    tag: 'Stats',
    response: { status: 200, schema: taskStats, description: 'The figures.' },
    errors: [],
  },
];
