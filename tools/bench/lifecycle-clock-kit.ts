import 'reflect-metadata';
import { MODULE_METADATA } from '@nestjs/common/constants';
import type { DynamicModule } from '@nestjs/common';
import type { DataSource, QueryRunner } from 'typeorm';
import { INTAKE_CHANNELS, type NewRequestCommand, type QueueQuery, REQUEST_TYPES, type RequestStatus } from '@dsar/contracts';
import type { ServiceDefinition } from '@dsar/platform/host';
import type { TenantScope } from '@dsar/platform/http';
import type { UnitOfWork } from '@dsar/platform/persistence';
import { LifecycleClockModule, type RequestEntity } from '@dsar/services/lifecycle-clock';
import { recordStatements, type Statement } from './bench-kit';

/**
 * What the benchmarks of lifecycle-clock's tables share (queue.bench.ts, benchmarks/identity.ts): the bulk loader of
 * requests, the classes lifecycle-clock provides but does not export, and the recording of the queue's statements.
 */

/** Status mix, weighted toward open requests (60 % open); cumulative thresholds for one random() per row. */
export const STATUS_MIX: readonly (readonly [RequestStatus, number])[] = [
  ['received', 0.15],
  ['in_progress', 0.25],
  ['clarification_pending', 0.08],
  ['verification_pending', 0.12],
  ['fulfilled', 0.28],
  ['refused', 0.06],
  ['closed', 0.06],
];
/** US state laws give 45 days, the others 30 (the due time counts from the provenance time). */
export const JURISDICTIONS = ['EU', 'DE', 'FR', 'GB', 'US-CA', 'US-VA', 'US-CO'];
const WORKSPACES = 12;
const WORKSPACE_SHARE = 0.6;

/** The name of the n-th other tenant of a load (0-based, modulo the number of other tenants). */
/** The create the benchmarks send to RequestRegistry: an access request by web form, received a minute ago, with the requestor given. */
export function accessCommand(receivedAt: string, requestor?: NewRequestCommand['requestor']): NewRequestCommand {
  return {
    jurisdiction: 'DE',
    requestType: 'access',
    requestTypeInferred: false,
    intakeSource: { channel: 'web_form', rawText: 'I would like a copy of everything you store about me, please.', receivedAt },
    ...(requestor ? { requestor } : {}),
  };
}

export const otherTenant = (n: number): string => `bench-other-${String(n).padStart(3, '0')}`;

const sqlText = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * One INSERT … SELECT … FROM generate_series into `table` (lifecycle-clock's `requests`, schema-qualified), rows in
 * `received_at` order as arrivals would write them. Parameters: $1 the rows of tenant $4, $2 the rows of the other
 * tenants, spread over $3 of them (`otherTenant(i % $3)`). Received uniformly over the last two years, STATUS_MIX,
 * JURISDICTIONS, every type and channel, 60 % of the rows in one of 12 workspaces, `requestor` `{type: subject}` on
 * 60 % of them (no identity in clear).
 */
export function requestsLoadSql(table: string): string {
  let cumulative = 0;
  const statusCase = STATUS_MIX.map(([status, weight]) => {
    cumulative += weight;
    return `WHEN r_status < ${cumulative.toFixed(4)} THEN ${sqlText(status)}`;
  }).join(' ');
  const pick = (values: readonly string[]) => `(ARRAY[${values.map(sqlText).join(', ')}])[1 + floor(random() * ${values.length})::int]`;
  // OFFSET 0 fences each level, so every random() is drawn once per row and reused.
  return `
    INSERT INTO ${table} (
      id, tenant_id, workspace_id, jurisdiction, request_type, request_type_inferred, status, channel,
      received_at, intake_received_at, clock_mode, policy_pack, policy_version, due_at,
      intake_source, requestor, authority, last_event_id, created_at, updated_at, version, status_changed_at)
    SELECT
      gen_random_uuid(), tenant_id, workspace_id, jurisdiction, request_type, r_inferred < 0.3, status, channel,
      received_at, intake_received_at, 'receipt',
      CASE WHEN jurisdiction LIKE 'US-%' THEN 'us-state-privacy' ELSE 'eu-gdpr' END, '1.0.0',
      intake_received_at + CASE WHEN jurisdiction LIKE 'US-%' THEN interval '45 days' ELSE interval '30 days' END,
      jsonb_build_object(
        'channel', channel,
        'rawText', 'Please send me a copy of the personal data you hold about me.',
        'receivedAt', to_char(intake_received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
      CASE WHEN r_requestor < 0.6 THEN jsonb_build_object('type', 'subject') END,
      NULL, NULL,
      received_at, LEAST(now(), received_at + r_updated * interval '40 days'), 1,
      -- the last status change: the last update, as nothing else changes these rows
      LEAST(now(), received_at + r_updated * interval '40 days')
    FROM (
      SELECT *,
        received_at - r_intake * interval '3 days' AS intake_received_at,
        CASE ${statusCase} ELSE 'closed' END AS status
      FROM (
        SELECT
          CASE WHEN i <= $1 THEN $4 ELSE 'bench-other-' || lpad((i % $3)::text, 3, '0') END AS tenant_id,
          now() - random() * interval '730 days' AS received_at,
          CASE WHEN random() < ${WORKSPACE_SHARE} THEN 'ws-' || lpad((1 + floor(random() * ${WORKSPACES}))::int::text, 2, '0') END AS workspace_id,
          ${pick(JURISDICTIONS)} AS jurisdiction,
          ${pick(REQUEST_TYPES)} AS request_type,
          ${pick(INTAKE_CHANNELS)} AS channel,
          random() AS r_status, random() AS r_intake, random() AS r_updated, random() AS r_inferred, random() AS r_requestor
        FROM generate_series(1, $1::int + $2::int) AS g(i)
        OFFSET 0
      ) a
      OFFSET 0
    ) b
    ORDER BY received_at`;
}

/** The settings of the bulk loads: an INSERT … SELECT of a million rows sorts them by receipt. */
export async function bulkSession(qr: QueryRunner): Promise<void> {
  await qr.query(`SET work_mem = '256MB'`);
  await qr.query(`SET maintenance_work_mem = '512MB'`);
}

type Class = abstract new (...args: never[]) => unknown;

/**
 * A class lifecycle-clock provides but does not export, by its name: from LifecycleClockModule's providers, or, given
 * the service's definition, from the providers of its dynamic module too (the identity index's, made from the
 * settings). A tool may not deep-import a service library (module boundaries); these are the classes the service's
 * own controllers get.
 */
export function lifecycleClockProvider(name: string, definition?: ServiceDefinition): Class {
  const listed: unknown = Reflect.getMetadata(MODULE_METADATA.PROVIDERS, LifecycleClockModule);
  const dynamic = definition && typeof definition.module === 'object' ? ((definition.module as DynamicModule).providers ?? []) : [];
  for (const provider of [...(Array.isArray(listed) ? listed : []), ...dynamic] as unknown[]) {
    const token = typeof provider === 'function' ? provider : provider && typeof provider === 'object' && 'provide' in provider ? provider.provide : undefined;
    if (typeof token === 'function' && token.name === name) return token as Class;
  }
  throw new Error(`lifecycle-clock no longer provides ${name}`);
}

/** What the benchmarks read of RequestQueue.page()'s answer. */
export interface QueueSliceLike {
  rows: RequestEntity[];
  total: number;
  totalExact: boolean;
}
export interface QueuePager {
  page(scope: TenantScope, query: QueueQuery, now?: Date): Promise<QueueSliceLike>;
}

/**
 * RequestQueue, the class LifecycleClockModule provides to its controller, over a unit of work alone: enough when the
 * caller passes `now` and searches no identity (the clock and the identity index are its other dependencies).
 */
export function requestQueueClass(): new (uow: UnitOfWork) => QueuePager {
  const found = lifecycleClockProvider('RequestQueue') as unknown as new (uow: UnitOfWork) => QueuePager;
  if (typeof found.prototype.page !== 'function') throw new Error('RequestQueue no longer has a page() method');
  return found;
}

/**
 * A statement page() sent, with what it is: the page SELECT, a statement of the total (the counters, the capped
 * counts of a filter the counters cannot answer, the planner's estimate), or anything else.
 */
export interface Recorded extends Statement {
  kind: 'select' | 'total' | 'other';
}

/** Times every statement page() sends, where TypeORM sends it (recordStatements), each with its kind. */
export function recordQueueStatements(ds: DataSource): { take(): Recorded[] } {
  const recorder = recordStatements(ds);
  // A total: the counters, the planner's estimate, or an identity search's count from the index alone.
  const kindOf = (sql: string): Recorded['kind'] => (/request_counts|^\s*EXPLAIN|count\(DISTINCT i\.request_id\)/.test(sql) ? 'total' : /^\s*SELECT/i.test(sql) ? 'select' : 'other');
  return { take: () => recorder.take().map((q) => ({ ...q, kind: kindOf(q.sql) })) };
}

/** The access paths of a plan: the indexes it scans, or the tables it reads sequentially. */
export function accessPaths(plan: string[]): string {
  const paths = new Set<string>();
  for (const line of plan) {
    const index = /(Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using |on )(\w+)/.exec(line);
    if (index) paths.add(`${index[2]}${/Only/.test(index[1]) ? ' (index-only)' : /Bitmap/.test(index[1]) ? ' (bitmap)' : ''}${/Backward/.test(line) ? ' ↑' : ''}`);
    if (/Seq Scan on/.test(line)) paths.add('Seq Scan');
  }
  return [...paths].join(', ') || '—';
}
