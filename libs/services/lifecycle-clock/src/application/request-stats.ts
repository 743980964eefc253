import { Injectable } from '@nestjs/common';
import { CLOSED_STATUSES } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import type { StatsWindows } from '../domain/request-windows';
import { namedQuery, OPEN_CONDITION, OPEN_PARAMS, scopeConditions } from './request-conditions';

/** What the tenant's figures count, in the caller's scope (RequestStats.count). */
export interface CountedRequests {
  /** Open requests per open status; a status with none may be missing. */
  byStatus: Record<string, number>;
  atRisk: number;
  overdue: number;
  dueThisWeek: number;
  overdueThisWeek: number;
  /** Requests decided in the window, and the median of their times to decision in seconds (null when none). */
  decided: number;
  medianSeconds: number | null;
}

interface CountedRow {
  by_status: Record<string, string | number>;
  at_risk: string;
  overdue: string;
  due_this_week: string;
  overdue_this_week: string;
  decided: string;
  median_seconds: number | string | null;
}

/**
 * The tenant's figures for the dashboard (`GET /stats/requests`, docs/lifecycle.md#figures), counted by the database
 * in one statement (one snapshot), no row read into the service:
 *
 * - the open requests per status from the request counters (RequestCounts), as the queue's totals;
 * - those due by the week's horizon, through the open requests' due index (`requests_queue_open_due`), split as the
 *   queue's at-risk filter splits them: overdue (due by now) or not yet;
 * - the median time from receipt (`intake_received_at`, where the legal clock starts) to decision (the last step from
 *   an open status to a decided one) of the requests decided in the window, found through `requests_decided_changed`
 *   (a request enters its decided status at its decision or later) and each decision through its transitions.
 *
 * The scope and the open and at-risk conditions are the queue's (request-conditions.ts), so that each figure counts
 * what the queue view it links to lists.
 */
@Injectable()
export class RequestStats {
  constructor(private readonly uow: UnitOfWork) {}

  async count(scope: TenantScope, windows: StatsWindows): Promise<CountedRequests> {
    const { keys, params } = scopeConditions(scope);
    const scoped = keys.join(' AND ');
    const requests = this.table('requests');
    const [row]: CountedRow[] = await namedQuery(
      this.uow,
      this.uow.manager,
      `SELECT counted.by_status, due.at_risk, due.overdue, due.due_this_week, due.overdue_this_week, decided.decided, decided.median_seconds
         FROM (SELECT coalesce(json_object_agg(c.status, c.n), '{}'::json) AS by_status
                 FROM (SELECT r.status, sum(r.n)::bigint AS n FROM ${this.table('request_counts')} r WHERE ${scoped} AND ${OPEN_CONDITION} GROUP BY r.status) c) counted,
              (SELECT count(*) AS at_risk,
                      count(*) FILTER (WHERE r.due_at <= :asOf) AS overdue,
                      count(*) FILTER (WHERE r.due_at > :asOf) AS due_this_week,
                      count(*) FILTER (WHERE r.due_at > :weekAgo AND r.due_at <= :asOf) AS overdue_this_week
                 FROM ${requests} r WHERE ${scoped} AND ${OPEN_CONDITION} AND r.due_at <= :weekAhead) due,
              (SELECT count(*) AS decided,
                      percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM d.decided_at - r.intake_received_at)::float8) AS median_seconds
                 FROM ${requests} r
                 CROSS JOIN LATERAL (SELECT max(t.occurred_at) AS decided_at FROM ${this.table('request_transitions')} t
                                      WHERE t.request_id = r.id AND t.from_status IN (:...open) AND t.to_status IN (:...decidedStatuses)) d
                WHERE ${scoped} AND r.status IN (:...decidedStatuses) AND r.status_changed_at >= :closedSince
                  AND d.decided_at >= :closedSince AND d.decided_at <= :asOf) decided`,
      {
        ...params,
        ...OPEN_PARAMS,
        decidedStatuses: [...CLOSED_STATUSES],
        asOf: windows.asOf,
        weekAhead: windows.weekAhead,
        weekAgo: windows.weekAgo,
        closedSince: windows.closedSince,
      },
    );
    return {
      byStatus: Object.fromEntries(Object.entries(row.by_status).map(([status, n]) => [status, Number(n)])),
      atRisk: Number(row.at_risk),
      overdue: Number(row.overdue),
      dueThisWeek: Number(row.due_this_week),
      overdueThisWeek: Number(row.overdue_this_week),
      decided: Number(row.decided),
      medianSeconds: row.median_seconds === null ? null : Number(row.median_seconds),
    };
  }

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }
}
