import { OPEN_TASK_STATES, TASK_STATES, type TaskStats as TaskStatsView } from '@dsar/contracts';

/** One system's open tasks past their due date, as counted. */
export interface PastDueSystem {
  systemKey: string;
  /** null when the registry holds no definition of the system. */
  displayName: string | null;
  deleted: boolean;
  count: number;
  oldestDueAt: Date;
}

/** What TaskStats counts: tasks per state (a state with none may be missing), and the systems with tasks past due, the longest overdue first. */
export interface CountedTasks {
  byState: Record<string, number>;
  pastDue: PastDueSystem[];
}

/** The figures as `GET /stats/tasks` answers them: every state named (zero when none), the open ones summed. */
export function taskStatsOf(counted: CountedTasks, asOf: Date): TaskStatsView {
  const byState = Object.fromEntries(TASK_STATES.map((state) => [state, counted.byState[state] ?? 0])) as TaskStatsView['byState'];
  return {
    asOf: asOf.toISOString(),
    byState,
    open: OPEN_TASK_STATES.reduce((sum, state) => sum + byState[state], 0),
    pastDue: {
      count: counted.pastDue.reduce((sum, system) => sum + system.count, 0),
      systems: counted.pastDue.map((system) => ({
        systemKey: system.systemKey,
        displayName: system.displayName ?? system.systemKey,
        deleted: system.deleted,
        count: system.count,
        oldestDueAt: system.oldestDueAt.toISOString(),
      })),
    },
  };
}
