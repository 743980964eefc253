import type { EntityManager, ObjectLiteral } from 'typeorm';
import { OPEN_STATUSES } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import type { UnitOfWork } from '@dsar/platform/persistence';

/*
 * The SQL conditions the queue (RequestQueue) and the tenant's figures (RequestStats) share, so that a figure of the
 * dashboard and the queue view it links to count the same requests. Each is written for `r` being `requests` or
 * `request_counts`, whose tenant, workspace and status columns are the same.
 */

/** The caller's scope: its tenant and, for a caller confined to one, its workspace (`:tenantId`, `:workspaceId`). */
export function scopeConditions(scope: TenantScope): { keys: string[]; params: ObjectLiteral } {
  const keys = ['r.tenant_id = :tenantId'];
  const params: ObjectLiteral = { tenantId: scope.tenantId };
  if (scope.workspaceId) {
    keys.push('r.workspace_id = :workspaceId');
    params.workspaceId = scope.workspaceId;
  }
  return { keys, params };
}

/** An open request: one of OPEN_STATUSES, given as `:...open` (OPEN_PARAMS). */
export const OPEN_CONDITION = 'r.status IN (:...open)';
export const OPEN_PARAMS: ObjectLiteral = { open: [...OPEN_STATUSES] };

/** Raw SQL with TypeORM's named parameters (`:name`, `:...list`), on `manager` (a unit of work's transaction, or the pool). */
export function namedQuery<T>(uow: UnitOfWork, manager: EntityManager, sql: string, params: ObjectLiteral): Promise<T[]> {
  const [text, values] = uow.dataSource.driver.escapeQueryWithParameters(sql, params, {});
  return manager.query(text, values);
}
