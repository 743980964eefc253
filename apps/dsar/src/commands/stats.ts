import type { Command } from 'commander';
import { ENDPOINTS } from '../endpoints';
import { intArg, type Kit } from '../kit';

/** The contracts' CLOSE_WINDOW_DAYS (libs/contracts/src/http/stats.ts); the CLI imports no runtime code of the contracts. */
const CLOSE_WINDOW_DAYS = { min: 1, max: 366 } as const;

/** The tenant's figures, as the console's dashboard shows them (docs/lifecycle.md#figures, docs/data-systems.md#figures). */
export function statsCommands(program: Command, kit: Kit): void {
  const stats = program.command('stats').description("the figures of the caller's requests and data-system tasks: open, at risk, overdue, time to close, tasks past due");
  kit.api(stats, {
    name: 'requests',
    summary: 'open requests by status, at risk and overdue, due or overdue this week, and the median time to close (GET /stats/requests)',
    endpoint: ENDPOINTS.getRequestStats,
    query: [
      {
        flags: '--window-days <n>',
        description: `the median time to close over the requests decided in the last n days, ${CLOSE_WINDOW_DAYS.min}–${CLOSE_WINDOW_DAYS.max} (default 30)`,
        field: 'windowDays',
        parse: intArg(CLOSE_WINDOW_DAYS.min, CLOSE_WINDOW_DAYS.max),
      },
    ],
    examples: ['dsar stats requests', 'dsar stats requests --window-days 90 -o json'],
  });
  kit.api(stats, {
    name: 'tasks',
    summary: 'data-system tasks by state, and the open ones past their due date per system (GET /stats/tasks)',
    endpoint: ENDPOINTS.getTaskStats,
    view: { columns: { 'pastDue.systems': ['systemKey', 'displayName', 'count', 'oldestDueAt', 'deleted'] } },
    examples: ['dsar stats tasks', 'dsar stats tasks -o yaml'],
  });
}
