import { Injectable } from '@nestjs/common';
import { OPEN_TASK_STATES } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import type { CountedTasks, PastDueSystem } from './task-stats-view';

interface CountedRow {
  by_state: Record<string, string | number>;
  past_due: Array<{ system_key: string; display_name: string | null; deleted: boolean; n: string | number; oldest_due_at: string }>;
}

/**
 * The figures of the caller's data-system tasks for the dashboard (`GET /stats/tasks`, docs/data-systems.md#figures),
 * counted by the database in one statement (one snapshot), no task read into the service: the tasks per state, and the
 * open ones past their due date per system, with the system's name from the registry (a deleted system keeps its
 * row). In the caller's scope: its tenant, and its workspace when it is confined to one, as a request's task list.
 */
@Injectable()
export class TaskStats {
  constructor(private readonly uow: UnitOfWork) {}

  async count(scope: TenantScope, now: Date): Promise<CountedTasks> {
    const tasks = qualifiedTable(this.uow.dataSource, 'data_system_task');
    const systems = qualifiedTable(this.uow.dataSource, 'data_system');
    const params: unknown[] = [scope.tenantId, [...OPEN_TASK_STATES], now];
    let scoped = 't.tenant_id = $1';
    if (scope.workspaceId !== undefined) {
      params.push(scope.workspaceId);
      scoped += ` AND t.workspace_id = $${params.length}`;
    }
    const [row]: CountedRow[] = await this.uow.manager.query(
      `SELECT (SELECT coalesce(json_object_agg(c.state, c.n), '{}'::json)
                 FROM (SELECT t.state, count(*) AS n FROM ${tasks} t WHERE ${scoped} GROUP BY t.state) c) AS by_state,
              (SELECT coalesce(json_agg(p ORDER BY p.oldest_due_at, p.system_key), '[]'::json)
                 FROM (SELECT t.system_key, max(s.definition->>'displayName') AS display_name, bool_or(s.deleted_at IS NOT NULL) AS deleted,
                              count(*) AS n, min(t.due_at) AS oldest_due_at
                         FROM ${tasks} t LEFT JOIN ${systems} s ON s.tenant_id = t.tenant_id AND s.key = t.system_key
                        WHERE ${scoped} AND t.state = ANY($2) AND t.due_at <= $3
                        GROUP BY t.system_key) p) AS past_due`,
      params,
    );
    const pastDue: PastDueSystem[] = row.past_due.map((p) => ({
      systemKey: p.system_key,
      displayName: p.display_name,
      deleted: p.deleted === true,
      count: Number(p.n),
      oldestDueAt: new Date(p.oldest_due_at),
    }));
    return { byState: Object.fromEntries(Object.entries(row.by_state).map(([state, n]) => [state, Number(n)])), pastDue };
  }
}
