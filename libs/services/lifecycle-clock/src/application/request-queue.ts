import { Injectable } from '@nestjs/common';
import { OPEN_STATUSES, QUEUE_LIMIT, type QueueQuery } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import type { TenantScope } from '@dsar/platform/http';
import { UnitOfWork } from '@dsar/platform/persistence';
import { RequestEntity } from '../infrastructure/request.entity';

const SORT_COLUMNS = { receivedAt: 'r.received_at', dueAt: 'r.due_at', status: 'r.status', updatedAt: 'r.updated_at' } as const;

export interface QueueSlice {
  rows: RequestEntity[];
  total: number;
  limit: number;
  offset: number;
  sortBy: keyof typeof SORT_COLUMNS;
  sortOrder: 'asc' | 'desc';
}

/**
 * The work queue of a tenant. Every filter and sort order is served by an
 * index that starts with the tenant (see the RequestIntake migration); the id
 * breaks ties so that pages never overlap or skip.
 */
@Injectable()
export class RequestQueue {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async page(scope: TenantScope, query: QueueQuery, now = this.clock.now()): Promise<QueueSlice> {
    const limit = query.limit ?? QUEUE_LIMIT.default;
    const offset = query.offset ?? 0;
    const sortBy = query.sortBy ?? 'receivedAt';
    const sortOrder = query.sortOrder ?? 'desc';
    const direction = sortOrder === 'asc' ? 'ASC' : 'DESC';

    const qb = this.uow.dataSource.getRepository(RequestEntity).createQueryBuilder('r').where('r.tenant_id = :tenantId', { tenantId: scope.tenantId });
    if (scope.workspaceId) qb.andWhere('r.workspace_id = :workspaceId', { workspaceId: scope.workspaceId });
    if (query.status) qb.andWhere('r.status IN (:...statuses)', { statuses: query.status });
    if (query.atRiskDays !== undefined) {
      // At risk: still open and due within N days from now; overdue requests are the most at risk of all.
      qb.andWhere('r.status IN (:...open)', { open: [...OPEN_STATUSES] });
      qb.andWhere('r.due_at <= :horizon', { horizon: new Date(now.getTime() + query.atRiskDays * 86_400_000) });
    }
    qb.orderBy(SORT_COLUMNS[sortBy], direction);
    // Within one status the newest first (or last): useful to a reader, and the order of the status index.
    if (sortBy === 'status') qb.addOrderBy('r.received_at', direction);
    const [rows, total] = await qb
      .addOrderBy('r.id', direction)
      .offset(offset)
      .limit(limit)
      .getManyAndCount();
    return { rows, total, limit, offset, sortBy, sortOrder };
  }
}
