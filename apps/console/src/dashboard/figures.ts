import type { RequestStats, RequestStatus, TaskStats } from '@dsar/contracts';
import { STATUS_LABELS } from '../labels';
import { EMPTY_VIEW, type QueueView, searchOfView } from '../queue/view-state';
import { QUEUE_PATH } from '../router';

/*
 * What the dashboard shows of the tenant's figures (`GET /stats/requests`, `GET /stats/tasks`): each figure in words,
 * and, where the queue has a filter for it, the address of that queue view, so that a figure opens the requests it
 * counts. The page (pages/dashboard.tsx) only lays these out.
 */

/** One figure: its number, what it counts, a line more, the queue view it opens (absent when no filter lists it), and whether it calls for attention. */
export interface Figure {
  key: string;
  count: number;
  label: string;
  detail?: string;
  href?: string;
  alert: boolean;
}

/** `1 request`, `3 requests`, in the locale's digits. */
export function countOf(n: number, one: string, many: string, locale?: string): string {
  return `${n.toLocaleString(locale)} ${n === 1 ? one : many}`;
}

/** The queue at a view: every filter but the ones given left at its default. */
export function queueHref(filters: Partial<QueueView>): string {
  return `${QUEUE_PATH}${searchOfView({ ...EMPTY_VIEW, ...filters })}`;
}

/** The open requests per status, each opening the queue of that status. */
export function openFigures(stats: RequestStats): Figure[] {
  return (Object.keys(stats.open.byStatus) as Array<keyof RequestStats['open']['byStatus']>).map((status) => ({
    key: status,
    count: stats.open.byStatus[status],
    label: STATUS_LABELS[status as RequestStatus],
    href: queueHref({ status: [status] }),
    alert: false,
  }));
}

/** Every open status: the queue view of all the open requests. */
export function allOpenHref(stats: RequestStats): string {
  return queueHref({ status: Object.keys(stats.open.byStatus) as RequestStatus[] });
}

/**
 * The deadlines: at risk (the queue's `atRiskDays` view), overdue (its overdue view), due in the next seven days and
 * overdue since seven days ago (no queue filter counts those two alone). `formatDate` writes an instant as a date.
 */
export function deadlineFigures(stats: RequestStats, formatDate: (iso: string) => string): Figure[] {
  return [
    {
      key: 'at-risk',
      count: stats.atRisk.count,
      label: 'At risk',
      detail: `Due within ${countOf(stats.atRisk.days, 'day', 'days')}, overdue ones included`,
      href: queueHref({ atRiskDays: stats.atRisk.days, sortBy: 'dueAt', sortOrder: 'asc' }),
      alert: stats.atRisk.count > 0,
    },
    {
      key: 'overdue',
      count: stats.overdue.count,
      label: 'Overdue',
      detail: 'Past their due date and still open',
      href: queueHref({ overdue: true, sortBy: 'dueAt', sortOrder: 'asc' }),
      alert: stats.overdue.count > 0,
    },
    {
      key: 'due-this-week',
      count: stats.dueThisWeek.count,
      label: 'Due this week',
      detail: `Not overdue yet, due by ${formatDate(stats.dueThisWeek.to)}`,
      alert: false,
    },
    {
      key: 'overdue-this-week',
      count: stats.overdueThisWeek.count,
      label: 'Overdue since this week',
      detail: `Became overdue after ${formatDate(stats.overdueThisWeek.from)}`,
      alert: stats.overdueThisWeek.count > 0,
    },
  ];
}

const HOUR_S = 3600;

/** A duration in days and hours, to the nearest hour: `5 days 0 hours`, `1 day 3 hours`, `7 hours`, `less than an hour`. */
export function durationText(seconds: number): string {
  const hours = Math.round(seconds / HOUR_S);
  if (hours === 0) return 'less than an hour';
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  if (days === 0) return countOf(rest, 'hour', 'hours');
  return `${countOf(days, 'day', 'days')} ${countOf(rest, 'hour', 'hours')}`;
}

/** The median time to close and what it was taken over: `5 days 0 hours`, `median over 5 closed requests in the last 30 days`. */
export function timeToCloseText(stats: RequestStats): { figure: string; detail: string } {
  const { closed, medianSeconds, windowDays } = stats.timeToClose;
  const window = `in the last ${countOf(windowDays, 'day', 'days')}`;
  if (medianSeconds === null || closed === 0) return { figure: 'No figure', detail: `No request was closed ${window}` };
  return { figure: durationText(medianSeconds), detail: `Median over ${countOf(closed, 'closed request', 'closed requests')} ${window}, from receipt to decision` };
}

/** How long ago a task fell due, in days and hours: `overdue by 2 days 4 hours`. */
export function overdueBy(dueAt: string, asOf: string): string {
  const seconds = Math.max(0, (Date.parse(asOf) - Date.parse(dueAt)) / 1000);
  return `overdue by ${durationText(seconds)}`;
}

/** One data system's tasks past their due date, as the table of the dashboard shows them. */
export interface PastDueRow {
  systemKey: string;
  name: string;
  count: number;
  oldestDueAt: string;
  overdueBy: string;
}

export function pastDueRows(stats: TaskStats): PastDueRow[] {
  return stats.pastDue.systems.map((system) => ({
    systemKey: system.systemKey,
    name: system.deleted ? `${system.displayName} (deleted)` : system.displayName,
    count: system.count,
    oldestDueAt: system.oldestDueAt,
    overdueBy: overdueBy(system.oldestDueAt, stats.asOf),
  }));
}

/** The figures of the tasks: those still open, and those of them past their due date. */
export function taskFigures(stats: TaskStats): Figure[] {
  return [
    { key: 'open-tasks', count: stats.open, label: 'Open tasks', detail: 'Waiting, queued, being worked on, blocked or needing an operator', alert: false },
    {
      key: 'past-due-tasks',
      count: stats.pastDue.count,
      label: 'Past their due date',
      detail: `At ${countOf(stats.pastDue.systems.length, 'data system', 'data systems')}`,
      alert: stats.pastDue.count > 0,
    },
  ];
}
