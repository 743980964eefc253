import { Injectable } from '@nestjs/common';
import type { EntityManager, ObjectLiteral } from 'typeorm';
import { idRangeOfReference, QUEUE_AT_RISK_EXACT_BOUND, QUEUE_LIMIT, type QueueQuery } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { atRiskHorizon } from '../domain/request-windows';
import { RequestEntity } from '../infrastructure/request.entity';
import { namedQuery, OPEN_CONDITION, OPEN_PARAMS, scopeConditions } from './request-conditions';
import { RequestIdentities } from './request-identities';

const SORT_COLUMNS = { receivedAt: 'r.received_at', dueAt: 'r.due_at', status: 'r.status', updatedAt: 'r.updated_at' } as const;

export interface QueueSlice {
  rows: RequestEntity[];
  total: number;
  /** False only when `total` is an estimate: more than QUEUE_AT_RISK_EXACT_BOUND requests at risk, and not at risk. */
  totalExact: boolean;
  limit: number;
  offset: number;
  sortBy: keyof typeof SORT_COLUMNS;
  sortOrder: 'asc' | 'desc';
}

interface QueueTotal {
  total: number;
  exact: boolean;
}

/**
 * The conditions of a queue read: `keys` on the tenant, workspace and status,
 * written so that they hold both for `requests r` and for `request_counts r`
 * (the same columns); `rows`, those only `requests` can answer (the due time
 * of the at-risk filter, the type, jurisdiction, channel, receipt dates,
 * reference, whether the request waits on its data systems, and triage); their
 * parameters by name. `later` is the condition of the open requests in scope
 * that `rows` leaves out, when it is known (the at-risk filter alone: due
 * after the horizon).
 */
interface QueueFilter {
  keys: string[];
  rows: string[];
  params: ObjectLiteral;
  later?: string;
  /** A search by identity with no other condition, in a tenant-wide scope. */
  identityAlone: boolean;
}

/** The index rows of the searched identity's digests (`:identityDigests`, bytes, one per configured key). */
const IDENTITY_DIGESTS_MATCH = 'i.digest = ANY(CAST(:identityDigests AS bytea[]))';

/**
 * The work queue of a tenant. Every filter and sort order is served by an
 * index that starts with the tenant (see the RequestIntake migration); the id
 * breaks ties so that pages never overlap or skip. `total` comes from the
 * request counters the triggers of the RequestCounts migration keep, not from
 * counting rows; only the at-risk filter, which depends on the time, counts
 * rows, up to a bound.
 */
@Injectable()
export class RequestQueue {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly identities: RequestIdentities,
  ) {}

  /**
   * `atRiskBound`: how many requests at risk are counted before `total` becomes an estimate (tests set a small one).
   * Counting 10,001 index entries takes 1–2 ms at a million requests (docs/performance.md).
   */
  async page(scope: TenantScope, query: QueueQuery, now = this.clock.now(), atRiskBound = QUEUE_AT_RISK_EXACT_BOUND): Promise<QueueSlice> {
    const limit = query.limit ?? QUEUE_LIMIT.default;
    const offset = query.offset ?? 0;
    const sortBy = query.sortBy ?? 'receivedAt';
    const sortOrder = query.sortOrder ?? 'desc';
    const direction = sortOrder === 'asc' ? 'ASC' : 'DESC';
    // A search by identity looks up its digests (one per configured key); a value that is no identity of its kind is a 400.
    const identityDigests =
      query.identity === undefined
        ? undefined
        : this.identities.searchDigests(scope.tenantId, query.identityKind ?? 'email', query.identity, query.jurisdiction?.length === 1 ? query.jurisdiction[0] : undefined);
    const filter = filterOf(scope, query, now, { systemTasks: this.table('request_system_tasks'), identities: this.table('request_identities') }, identityDigests);
    // Inside a unit of work both reads go through its transaction; PGlite has one connection.
    const inTransaction = this.uow.activeManager !== undefined;
    const manager = this.uow.manager;

    const readPage = (): Promise<RequestEntity[]> => {
      const qb = manager.createQueryBuilder(RequestEntity, 'r').where([...filter.keys, ...filter.rows].join(' AND '), filter.params);
      qb.orderBy(SORT_COLUMNS[sortBy], direction);
      // Within one status the newest first (or last): useful to a reader, and the order of the status index.
      if (sortBy === 'status') qb.addOrderBy('r.received_at', direction);
      return qb.addOrderBy('r.id', direction).offset(offset).limit(limit).getMany();
    };
    let rows: RequestEntity[];
    let total: QueueTotal;
    if (filter.rows.length === 0) {
      // The counters answer in a fraction of a millisecond: not worth a second connection.
      rows = await readPage();
      total = await this.counted(manager, filter);
    } else {
      const countTotal = () => (filter.identityAlone ? this.countedByIdentity(manager, filter) : this.countedUpTo(manager, filter, atRiskBound));
      if (inTransaction) {
        rows = await readPage();
        total = await countTotal();
      } else {
        // A total the counters cannot give counts index entries (milliseconds): on another pooled connection while the page is read.
        [rows, total] = await Promise.all([readPage(), countTotal()]);
      }
    }
    return { rows, total: total.total, totalExact: total.exact, limit, offset, sortBy, sortOrder };
  }

  /** The requests of the filter without its due time, from the counters: exact. */
  private async counted(manager: EntityManager, filter: QueueFilter): Promise<QueueTotal> {
    const [row]: Array<{ n: string }> = await this.query(manager, `SELECT coalesce(sum(r.n), 0)::bigint AS n FROM ${this.table('request_counts')} r WHERE ${filter.keys.join(' AND ')}`, filter.params);
    return { total: Number(row.n), exact: true };
  }

  /**
   * The requests of a search by identity with no other filter, in a tenant-wide scope: the requests the index holds
   * the digests for, counted from the index alone (its covering lookup), exact, with no request row read. A request
   * and its index rows are written and purged together, so every row names a request of the tenant.
   */
  private async countedByIdentity(manager: EntityManager, filter: QueueFilter): Promise<QueueTotal> {
    const [row]: Array<{ n: string }> = await this.query(
      manager,
      `SELECT count(DISTINCT i.request_id) AS n FROM ${this.table('request_identities')} i WHERE i.tenant_id = :tenantId AND ${IDENTITY_DIGESTS_MATCH}`,
      filter.params,
    );
    return { total: Number(row.n), exact: true };
  }

  /**
   * The requests the filter's row conditions keep, among those of its keys
   * (tenant, workspace, statuses; for the at-risk filter the open ones). In
   * one statement (one snapshot): the requests of the keys from the counters,
   * the matching ones counted up to bound + 1, and, when there are more than
   * `bound` of those and the filter knows the condition of the others (the
   * at-risk filter alone: due later), those counted up to bound + 1 as well.
   * Whichever side is within the bound gives the exact total; otherwise an
   * estimate (`exact: false`): the planner's share of the keys' requests that
   * match, applied to their exact count, and kept within what the capped
   * counts proved.
   */
  private async countedUpTo(manager: EntityManager, filter: QueueFilter, bound: number): Promise<QueueTotal> {
    const cap = bound + 1;
    const keys = filter.keys.join(' AND ');
    const matching = [...filter.keys, ...filter.rows].join(' AND ');
    const requests = this.table('requests');
    const later = filter.later ? `CASE WHEN matching > ${bound} THEN (SELECT count(*) FROM (SELECT 1 FROM ${requests} r WHERE ${keys} AND ${filter.later} LIMIT ${cap}) l) END` : 'NULL::bigint';
    const [row]: Array<{ scope: string; matching: string; later: string | null }> = await this.query(
      manager,
      `SELECT scope, matching, ${later} AS later
         FROM (SELECT (SELECT coalesce(sum(r.n), 0)::bigint FROM ${this.table('request_counts')} r WHERE ${keys}) AS scope,
                      (SELECT count(*) FROM (SELECT 1 FROM ${requests} r WHERE ${matching} LIMIT ${cap}) s) AS matching
               OFFSET 0) counted`,
      filter.params,
    );
    const scope = Number(row.scope);
    const found = Number(row.matching);
    if (found <= bound) return { total: found, exact: true };
    const others = row.later === null ? undefined : Number(row.later);
    if (others !== undefined && others <= bound) return { total: scope - others, exact: true };
    const [plan]: Array<{ 'QUERY PLAN': unknown }> = await this.query(
      manager,
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ${requests} r WHERE ${matching} UNION ALL SELECT 1 FROM ${requests} r WHERE ${keys}`,
      filter.params,
    );
    // Without the count of the others, all the keys' requests may match.
    return { total: estimateWithin(scope, shareOf(plan['QUERY PLAN']), cap, others === undefined ? 0 : cap), exact: false };
  }

  private table(name: string): string {
    return qualifiedTable(this.uow.dataSource, name);
  }

  private query<T>(manager: EntityManager, sql: string, params: ObjectLiteral): Promise<T[]> {
    return namedQuery(this.uow, manager, sql, params);
  }
}

function filterOf(scope: TenantScope, query: QueueQuery, now: Date, tables: { systemTasks: string; identities: string }, identityDigests?: Buffer[]): QueueFilter {
  const { keys, params } = scopeConditions(scope);
  if (query.status) {
    keys.push('r.status IN (:...statuses)');
    params.statuses = query.status;
  }
  const rows: string[] = [];
  let later: string | undefined;
  if (query.atRiskDays !== undefined) {
    // At risk: still open and due within N days from now; overdue requests are the most at risk of all.
    keys.push(OPEN_CONDITION);
    Object.assign(params, OPEN_PARAMS);
    params.horizon = atRiskHorizon(now, query.atRiskDays);
    rows.push('r.due_at <= :horizon');
    later = 'r.due_at > :horizon';
  }
  const rowFilters: Array<[string, string, unknown]> = [
    ['requestType', 'r.request_type IN (:...requestTypes)', query.requestType],
    ['jurisdiction', 'r.jurisdiction IN (:...jurisdictions)', query.jurisdiction],
    ['channel', 'r.channel IN (:...channels)', query.channel],
    ['receivedFrom', 'r.received_at >= :receivedFrom', query.receivedFrom && new Date(query.receivedFrom)],
    ['receivedTo', 'r.received_at < :receivedTo', query.receivedTo && new Date(query.receivedTo)],
  ];
  const names: Record<string, string> = { requestType: 'requestTypes', jurisdiction: 'jurisdictions', channel: 'channels' };
  for (const [name, condition, value] of rowFilters) {
    if (value === undefined) continue;
    rows.push(condition);
    params[names[name] ?? name] = value;
  }
  const range = query.reference === undefined ? undefined : idRangeOfReference(query.reference);
  if (range) {
    // The ids that start with the reference's eight hex digits: a range of the primary key.
    rows.push('r.id BETWEEN :referenceFrom AND :referenceTo');
    params.referenceFrom = range.from;
    params.referenceTo = range.to;
  }
  if (query.waitingOnSystems !== undefined) {
    // lifecycle-clock's copy of the request's tasks (RequestSystemTasks), probed through its index of the open required ones.
    rows.push(`${query.waitingOnSystems ? '' : 'NOT '}EXISTS (SELECT 1 FROM ${tables.systemTasks} t WHERE t.request_id = r.id AND t.open AND t.required)`);
  }
  if (query.triage !== undefined) {
    // In triage: no type yet (RequestTriage); `requests_queue_type` holds the null types too, by tenant and receipt.
    rows.push(query.triage ? 'r.request_type IS NULL' : 'r.request_type IS NOT NULL');
  }
  if (query.duplicate !== undefined) {
    // Marked and waiting, or confirmed: `requests_queue_duplicate` holds them by tenant and receipt.
    rows.push(query.duplicate ? "r.duplicate_state IN ('marked', 'confirmed')" : "r.duplicate_state IS DISTINCT FROM 'marked' AND r.duplicate_state IS DISTINCT FROM 'confirmed'");
  }
  if (identityDigests !== undefined) {
    // The blind index (RequestIdentities), by the tenant and the digests: an index lookup, whatever the tenant's size.
    rows.push(`r.id IN (SELECT i.request_id FROM ${tables.identities} i WHERE i.tenant_id = :tenantId AND ${IDENTITY_DIGESTS_MATCH})`);
    params.identityDigests = identityDigests;
  }
  // A search by identity alone in a tenant-wide scope is counted from the index (countedByIdentity).
  const identityAlone = identityDigests !== undefined && rows.length === 1 && keys.length === 1;
  // The count of the requests `rows` leaves out is known only for the at-risk filter alone.
  return { keys, rows, params, identityAlone, ...(later && rows.length === 1 ? { later } : {}) };
}

/** From the plan of `<at risk> UNION ALL <open>` (EXPLAIN (FORMAT JSON)): the planner's estimated share of the open requests that are at risk. */
export function shareOf(plan: unknown): number {
  const doc = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: { Plans?: Array<{ 'Plan Rows': number }> } }>;
  const [atRisk, open] = doc[0].Plan.Plans ?? [];
  if (!atRisk || !open || !(open['Plan Rows'] > 0)) return 1;
  return Math.min(1, atRisk['Plan Rows'] / open['Plan Rows']);
}

/**
 * `share` of the `open` requests, kept where the capped counts put the answer:
 * more than `cap − 1` match, and more than `othersAtLeast − 1` do not (`cap`
 * when the others were counted, 0 when they were not).
 */
export function estimateWithin(open: number, share: number, cap: number, othersAtLeast = cap): number {
  const least = cap;
  const most = Math.max(least, open - othersAtLeast);
  return Math.min(most, Math.max(least, Math.round(open * share)));
}
