import { z } from 'zod';
import { intParam, timestamp } from './fields';
import { OPEN_STATUSES } from './requests';
import { TASK_STATES } from './tasks';
import { systemKey } from './data-systems';

/**
 * HTTP contracts of the tenant's figures (the console's dashboard, `dsar stats`): the requests, counted by
 * lifecycle-clock (docs/lifecycle.md#figures), and the data-system tasks, counted by fulfilment-delivery
 * (docs/data-systems.md#figures). Both count in the caller's scope: the tenant, or the one workspace a caller is
 * confined to.
 */

/** "This week": the seven days after the moment of counting (due soon), and the seven before it (became overdue). */
export const STATS_WEEK_DAYS = 7;

/** The days back over which the median time to close is taken (`windowDays`). */
export const CLOSE_WINDOW_DAYS = { min: 1, max: 366, default: 30 } as const;

const count = z.number().int().nonnegative();

/** One count per key, every key present (zero when nothing is in it). */
function countsBy<const K extends readonly string[]>(keys: K) {
  return z.object(Object.fromEntries(keys.map((key) => [key, count])) as { [P in K[number]]: typeof count });
}

/** A count of the requests due within a span of time: after `from`, up to and including `to`. */
const dueSpan = z.object({ from: timestamp, to: timestamp, count });

export const requestStatsQuery = z
  .strictObject({
    windowDays: intParam(CLOSE_WINDOW_DAYS.min, CLOSE_WINDOW_DAYS.max)
      .optional()
      .describe(`The days back over which the median time to close is taken, ${CLOSE_WINDOW_DAYS.min}–${CLOSE_WINDOW_DAYS.max}; default ${CLOSE_WINDOW_DAYS.default}`),
  })
  .meta({ id: 'RequestStatsQuery' });
export type RequestStatsQuery = z.infer<typeof requestStatsQuery>;

export const requestStats = z
  .object({
    asOf: timestamp.describe('The moment the figures were counted at; every span below is taken from it'),
    open: z
      .object({
        total: count,
        byStatus: countsBy(OPEN_STATUSES).describe('The open requests of each open status: what `GET /requests?status=…` counts'),
      })
      .describe('The open requests'),
    atRisk: z
      .object({ days: z.literal(STATS_WEEK_DAYS), count })
      .describe(`Open requests due within \`days\` days of \`asOf\`, overdue ones included: what \`GET /requests?atRiskDays=${STATS_WEEK_DAYS}\` counts`),
    overdue: z.object({ count }).describe('Open requests due at or before `asOf`: what `GET /requests?atRiskDays=0` counts'),
    dueThisWeek: dueSpan.describe(`Open requests not yet overdue that fall due by \`asOf\` + ${STATS_WEEK_DAYS} days: \`from\` is \`asOf\`, \`to\` ${STATS_WEEK_DAYS}×24 hours later`),
    overdueThisWeek: dueSpan.describe(
      `Open requests that became overdue in the ${STATS_WEEK_DAYS} days up to \`asOf\` (due after \`from\`, ${STATS_WEEK_DAYS}×24 hours before \`asOf\`, up to \`to\`, \`asOf\`) and are still open`,
    ),
    timeToClose: z
      .object({
        windowDays: z.number().int().describe('The window, in days back from `asOf`'),
        from: timestamp,
        to: timestamp,
        closed: count.describe('The requests decided in the window: the count the median is taken over'),
        medianSeconds: z.number().nonnegative().nullable().describe('The median, in seconds, from receipt to decision; null when no request was decided in the window'),
      })
      .describe(
        'The median time from receipt (`intakeSource.receivedAt`, where the legal clock starts) to decision (the step from an open status to `fulfilled`, `refused` or `closed`), over the requests decided in the window that are still decided',
      ),
  })
  .meta({ id: 'RequestStats' });
export type RequestStats = z.infer<typeof requestStats>;

/** One data system's open tasks past their due date. */
export const systemPastDue = z
  .object({
    systemKey,
    displayName: z.string().describe("The system's name in the registry; its key when the registry holds no definition of it"),
    deleted: z.boolean().describe('The system was deleted since its tasks were made'),
    count,
    oldestDueAt: timestamp.describe('The due date of its task that is the longest overdue'),
  })
  .meta({ id: 'SystemPastDue' });
export type SystemPastDue = z.infer<typeof systemPastDue>;

export const taskStats = z
  .object({
    asOf: timestamp.describe('The moment the figures were counted at'),
    byState: countsBy(TASK_STATES).describe("The tasks of each state: every task of the caller's requests, settled ones included"),
    open: count.describe('The open tasks: waiting, queued, claimed, action_required and blocked'),
    pastDue: z
      .object({
        count,
        systems: z.array(systemPastDue).describe('Per data system, the longest overdue first'),
      })
      .describe("Open tasks past their due date (`dueAt`: the task's creation plus its system's `sla.expectedHours`, never after the request's legal due date)"),
  })
  .meta({ id: 'TaskStats' });
export type TaskStats = z.infer<typeof taskStats>;
