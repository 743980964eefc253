import type { DataSource } from 'typeorm';
import type { NewRequestCommand, Principal, QueueQuery } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import type { TenantScope } from '@dsar/platform/http';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { RequestLifecycle } from './application/request-lifecycle';
import { RequestQueue } from './application/request-queue';
import { RequestRecordPurger } from './application/request-record-purger';
import { RequestRegistry } from './application/request-registry';
import { REQUEST_COUNT_SLOTS } from './infrastructure/migrations/1763700000160-request-counts';
import { RequestEntity } from './infrastructure/request.entity';
import { lifecycleClockService } from './index';

const DAY = 86_400_000;

/**
 * The request counters of the RequestCounts migration (ADR 0029), kept by triggers on every write of `requests`, and
 * the queue totals read from them, on both drivers: every create, transition, re-scope and purge leaves them equal to
 * a count of the rows, concurrent writers of one tenant do not deadlock, and a rebuild or the migration's backfill
 * starts them from the rows there are.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const)('request counters on %s', (_name, driver) => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let registry: RequestRegistry;
  let lifecycle: RequestLifecycle;
  let queue: RequestQueue;
  let counts: string;
  let requests: string;
  const tenant = `t-${uniqueSuffix()}`;
  const other = `t-${uniqueSuffix()}`;
  const now = new Date();

  beforeAll(async () => {
    if (driver === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      service = await hostService(lifecycleClockService, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 10 }));
    } else {
      service = await hostService(lifecycleClockService, testHostConfig({ DATA_DIR: `memory://request-counts-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }));
    }
    registry = service.app.get(RequestRegistry);
    lifecycle = service.app.get(RequestLifecycle);
    queue = service.app.get(RequestQueue);
    ds = service.app.get(UnitOfWork).dataSource;
    counts = qualifiedTable(ds, 'request_counts');
    requests = qualifiedTable(ds, 'requests');
  });

  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  const operator = (tenantId: string, workspaceId?: string): Principal => ({ id: 'key:counters-test', tenantId, ...(workspaceId ? { workspaceId } : {}), roles: ['operator'] });

  /** A request received `daysAgo` days ago (DE: due about a month after). */
  function command(daysAgo: number): NewRequestCommand {
    return {
      jurisdiction: 'DE',
      requestType: 'access',
      requestTypeInferred: false,
      intakeSource: { channel: 'email', rawText: 'Please send me a copy of my data.', receivedAt: new Date(now.getTime() - daysAgo * DAY).toISOString() },
    };
  }
  const create = (scope: TenantScope, daysAgo = 1) => registry.create(scope, command(daysAgo), now).then((r) => r.id);

  /** Where the counters and a count of the rows disagree, per tenant, workspace and status: none, always. */
  async function drift(): Promise<unknown[]> {
    return ds.query(`
      SELECT coalesce(c.tenant_id, a.tenant_id) AS tenant, coalesce(c.workspace_id, a.workspace_id) AS workspace, coalesce(c.status, a.status) AS status,
             c.n::int AS counted, a.n::int AS actual
        FROM (SELECT tenant_id, workspace_id, status, sum(n) AS n FROM ${counts} GROUP BY 1, 2, 3 HAVING sum(n) <> 0) c
        FULL JOIN (SELECT tenant_id, coalesce(workspace_id, '') AS workspace_id, status, count(*) AS n FROM ${requests} GROUP BY 1, 2, 3) a
          ON c.tenant_id = a.tenant_id AND c.workspace_id = a.workspace_id AND c.status = a.status
       WHERE c.n IS DISTINCT FROM a.n`);
  }

  /** The queue's total and its flag for a caller and query. */
  const totalOf = async (scope: TenantScope, query: QueueQuery = {}, bound?: number) => {
    const page = await queue.page(scope, query, now, bound);
    return { total: page.total, totalExact: page.totalExact };
  };
  const exactly = (total: number) => ({ total, totalExact: true });

  it('counts creates per tenant, workspace and status, and the queue reads its totals from them', async () => {
    for (let i = 0; i < 3; i++) await create({ tenantId: tenant });
    for (let i = 0; i < 2; i++) await create({ tenantId: tenant, workspaceId: 'north' });
    await create({ tenantId: other });
    expect(await drift()).toEqual([]);
    expect(await totalOf({ tenantId: tenant })).toEqual(exactly(5));
    expect(await totalOf({ tenantId: tenant, workspaceId: 'north' })).toEqual(exactly(2));
    expect(await totalOf({ tenantId: tenant, workspaceId: 'south' })).toEqual(exactly(0));
    expect(await totalOf({ tenantId: other })).toEqual(exactly(1));
    expect(await totalOf({ tenantId: tenant }, { status: ['received'] })).toEqual(exactly(5));
    expect(await totalOf({ tenantId: tenant }, { status: ['in_progress', 'fulfilled'] })).toEqual(exactly(0));
    expect(await totalOf({ tenantId: `t-${uniqueSuffix()}` })).toEqual(exactly(0));
  });

  it('moves a request between statuses on every transition, and only then', async () => {
    const id = await create({ tenantId: tenant, workspaceId: 'north' });
    const who = operator(tenant);
    await lifecycle.acknowledge(who, id, {}, now);
    expect(await totalOf({ tenantId: tenant, workspaceId: 'north' }, { status: ['in_progress'] })).toEqual(exactly(1));
    await lifecycle.requestClarification(who, id, { message: 'Which account do you mean?' }, now);
    await lifecycle.receiveClarification(who, id, {}, now);
    await lifecycle.fulfil(who, id, now);
    expect(await drift()).toEqual([]);
    expect(await totalOf({ tenantId: tenant, workspaceId: 'north' }, { status: ['fulfilled'] })).toEqual(exactly(1));
    expect(await totalOf({ tenantId: tenant, workspaceId: 'north' }, { status: ['received', 'in_progress', 'clarification_pending'] })).toEqual(exactly(2));
    expect(await totalOf({ tenantId: tenant, workspaceId: 'north' })).toEqual(exactly(3));
    // An update that changes no status, workspace or tenant changes no counter.
    const before = await ds.query(`SELECT tenant_id, workspace_id, status, slot, n FROM ${counts} ORDER BY 1, 2, 3, 4`);
    await ds.query(`UPDATE ${requests} SET locale = 'de' WHERE tenant_id = $1`, [tenant]);
    expect(await ds.query(`SELECT tenant_id, workspace_id, status, slot, n FROM ${counts} ORDER BY 1, 2, 3, 4`)).toEqual(before);
  });

  it('follows a request moved to another workspace or tenant, and one whose id changes', async () => {
    const id = await create({ tenantId: tenant });
    await ds.query(`UPDATE ${requests} SET workspace_id = 'south' WHERE id = $1`, [id]);
    expect(await totalOf({ tenantId: tenant, workspaceId: 'south' })).toEqual(exactly(1));
    await ds.query(`UPDATE ${requests} SET tenant_id = $2, workspace_id = NULL WHERE id = $1`, [id, other]);
    expect(await totalOf({ tenantId: tenant, workspaceId: 'south' })).toEqual(exactly(0));
    expect(await totalOf({ tenantId: other })).toEqual(exactly(2));
    await ds.query(`UPDATE ${requests} SET id = gen_random_uuid() WHERE id = $1`, [id]);
    expect(await drift()).toEqual([]);
  });

  it('drops a purged request from its counter (the retention purge), and a bulk delete from all of them', async () => {
    const id = await create({ tenantId: tenant, workspaceId: 'north' });
    await lifecycle.close(operator(tenant), id, {}, now);
    const purger = service.app.get(RequestRecordPurger);
    const cutoff = new Date(now.getTime() + DAY);
    const [group] = (await purger.due(tenant, cutoff, 100)).filter((g) => g.requestId === id);
    expect(group).toBeDefined();
    const closedBefore = (await totalOf({ tenantId: tenant }, { status: ['closed'] })).total;
    await expect(service.app.get(UnitOfWork).run((tx) => purger.purge(tx, tenant, group, cutoff))).resolves.not.toBeNull();
    expect(await totalOf({ tenantId: tenant }, { status: ['closed'] })).toEqual(exactly(closedBefore - 1));
    expect(await drift()).toEqual([]);

    const bulk = `t-${uniqueSuffix()}`;
    for (let i = 0; i < 4; i++) await create({ tenantId: bulk, workspaceId: i % 2 ? 'north' : undefined });
    await ds.query(`DELETE FROM ${requests} WHERE tenant_id = $1`, [bulk]);
    expect(await totalOf({ tenantId: bulk })).toEqual(exactly(0));
    expect(await drift()).toEqual([]);
  });

  it('counts a bulk INSERT … SELECT with one statement', async () => {
    const bulk = `t-${uniqueSuffix()}`;
    await ds.query(
      `INSERT INTO ${requests} (id, tenant_id, workspace_id, jurisdiction, request_type, status, channel, received_at, intake_received_at,
                                policy_pack, policy_version, due_at, intake_source, version, status_changed_at)
       SELECT gen_random_uuid(), $1, CASE WHEN i % 3 = 0 THEN 'north' END, 'DE', 'access', CASE WHEN i % 2 = 0 THEN 'received' ELSE 'closed' END, 'email',
              now(), now(), 'eu-gdpr', '1.0.0', now() + interval '30 days', '{}'::jsonb, 1, now()
         FROM generate_series(1, 500) AS g(i)`,
      [bulk],
    );
    expect(await totalOf({ tenantId: bulk })).toEqual(exactly(500));
    expect(await totalOf({ tenantId: bulk }, { status: ['closed'] })).toEqual(exactly(250));
    expect(await totalOf({ tenantId: bulk, workspaceId: 'north' })).toEqual(exactly(166));
    // Spread over the slots, as concurrent creates are.
    const [{ slots }] = await ds.query(`SELECT count(DISTINCT slot)::int AS slots FROM ${counts} WHERE tenant_id = $1`, [bulk]);
    expect(slots).toBe(REQUEST_COUNT_SLOTS);
    expect(await drift()).toEqual([]);
  });

  it('keeps concurrent creates of one tenant, and concurrent opposite transitions, exact and free of deadlocks', async () => {
    const busy = `t-${uniqueSuffix()}`;
    const ids = await Promise.all(Array.from({ length: 32 }, (_, i) => create({ tenantId: busy, workspaceId: i % 2 ? 'north' : undefined })));
    expect(await totalOf({ tenantId: busy })).toEqual(exactly(32));
    const who = operator(busy);
    // Half wait for a clarification; then, all at once, those get their answer while the others are asked for one: the
    // same counter rows (received, in_progress, clarification_pending in each slot) taken by transitions in both directions.
    await Promise.all(ids.slice(0, 16).map((id) => lifecycle.requestClarification(who, id, { message: 'Which account?' }, now)));
    for (let round = 0; round < 2; round++) {
      const pending = round === 0 ? ids.slice(0, 16) : ids.slice(16);
      const waiting = round === 0 ? ids.slice(16) : ids.slice(0, 16);
      await Promise.all([
        ...pending.map((id) => lifecycle.receiveClarification(who, id, {}, now)),
        ...waiting.map((id) => lifecycle.requestClarification(who, id, { message: 'Which account?' }, now)),
      ]);
    }
    expect(await totalOf({ tenantId: busy }, { status: ['clarification_pending'] })).toEqual(exactly(16));
    expect(await totalOf({ tenantId: busy }, { status: ['in_progress'] })).toEqual(exactly(16));
    expect(await totalOf({ tenantId: busy }, { status: ['received'] })).toEqual(exactly(0));
    expect(await drift()).toEqual([]);
  });

  describe('the at-risk total', () => {
    const scope = { tenantId: `t-${uniqueSuffix()}` };

    beforeAll(async () => {
      // 5 overdue (received 40 days ago: due about 10 days ago) and 3 due in about four weeks, 2 of those in `north`.
      for (let i = 0; i < 5; i++) await create(scope, 40);
      for (let i = 0; i < 3; i++) await create(i < 2 ? { ...scope, workspaceId: 'north' } : scope, 2);
      // Closed requests are never at risk.
      await lifecycle.close(operator(scope.tenantId), await create(scope, 40), {}, now);
    });

    it('is exact while the requests at risk are within the bound', async () => {
      expect(await totalOf(scope, { atRiskDays: 7 })).toEqual(exactly(5));
      expect(await totalOf(scope, { atRiskDays: 7 }, 5)).toEqual(exactly(5));
      expect(await totalOf(scope, { atRiskDays: 40 }, 8)).toEqual(exactly(8));
      expect(await totalOf({ ...scope, workspaceId: 'north' }, { atRiskDays: 7 }, 1)).toEqual(exactly(0));
      expect(await totalOf(scope, { atRiskDays: 7, status: ['closed'] }, 1)).toEqual(exactly(0));
    });

    it('is exact from the open requests that are not at risk, when those are within the bound', async () => {
      expect(await totalOf(scope, { atRiskDays: 7 }, 3)).toEqual(exactly(5));
      expect(await totalOf(scope, { atRiskDays: 7, status: ['received', 'closed'] }, 4)).toEqual(exactly(5));
    });

    it('is an estimate, flagged, between what the capped counts proved, when both sides are beyond the bound', async () => {
      const estimated = await totalOf(scope, { atRiskDays: 7 }, 2);
      expect(estimated.totalExact).toBe(false);
      // More than 2 at risk and more than 2 of the 8 open requests not: 3 to 5.
      expect(estimated.total).toBeGreaterThanOrEqual(3);
      expect(estimated.total).toBeLessThanOrEqual(5);
      // The page itself is the same whatever the total.
      const page = await queue.page(scope, { atRiskDays: 7, sortBy: 'dueAt', sortOrder: 'asc' }, now, 2);
      expect(page.rows).toHaveLength(5);
    });

    it("reads inside the caller's unit of work as well", async () => {
      const uow = service.app.get(UnitOfWork);
      await expect(uow.run(() => totalOf(scope, { atRiskDays: 7 }, 3))).resolves.toEqual(exactly(5));
      await expect(uow.run(() => totalOf(scope, { atRiskDays: 7 }, 2))).resolves.toMatchObject({ totalExact: false });
      await expect(uow.run(() => totalOf(scope))).resolves.toEqual(exactly(9));
    });
  });

  describe('the totals of filters the counters do not keep (type, jurisdiction, channel, receipt dates, reference)', () => {
    const scope = { tenantId: `t-${uniqueSuffix()}` };
    const ids: string[] = [];
    const receivedAt = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY).toISOString();

    beforeAll(async () => {
      // 4 DE access by email (received 1–4 days ago), 2 FR deletion by web form (5 and 6 days ago), 1 US-CA deletion by phone (40 days ago).
      const rows: Array<[string, NewRequestCommand['requestType'], NewRequestCommand['intakeSource']['channel'], number]> = [
        ...[1, 2, 3, 4].map((d) => ['DE', 'access', 'email', d] as ['DE', 'access', 'email', number]),
        ['FR', 'deletion', 'web_form', 5],
        ['FR', 'deletion', 'web_form', 6],
        ['US-CA', 'deletion', 'phone', 40],
      ];
      for (const [jurisdiction, requestType, channel, daysAgo] of rows) {
        const base = command(daysAgo);
        // Recorded when the channel received it: the queue's `receivedAt`, which the date filters read.
        const request = { ...base, jurisdiction, requestType, receivedAt: base.intakeSource.receivedAt, intakeSource: { ...base.intakeSource, channel } };
        ids.push((await registry.create(scope, request, now)).id);
      }
    });

    it('are counted exactly while the matching requests are within the bound', async () => {
      expect(await totalOf(scope, { requestType: ['deletion'] })).toEqual(exactly(3));
      expect(await totalOf(scope, { requestType: ['deletion'] }, 3)).toEqual(exactly(3));
      expect(await totalOf(scope, { jurisdiction: ['FR', 'US-CA'] }, 3)).toEqual(exactly(3));
      expect(await totalOf(scope, { channel: ['email'] })).toEqual(exactly(4));
      expect(await totalOf(scope, { receivedFrom: receivedAt(5.5), receivedTo: receivedAt(0.5) })).toEqual(exactly(5));
      expect(await totalOf(scope, { requestType: ['deletion'], jurisdiction: ['FR'], channel: ['web_form'], status: ['received'] })).toEqual(exactly(2));
      expect(await totalOf(scope, { requestType: ['deletion'], atRiskDays: 7 })).toEqual(exactly(1));
      expect(await totalOf({ ...scope, workspaceId: 'north' }, { requestType: ['deletion'] })).toEqual(exactly(0));
      expect(await totalOf(scope, { reference: `DSAR-${ids[0].slice(0, 8).toUpperCase()}` })).toEqual(exactly(1));
    });

    it('are estimates, flagged, within what the counts proved, beyond the bound', async () => {
      const estimated = await totalOf(scope, { channel: ['email'] }, 2);
      expect(estimated.totalExact).toBe(false);
      // More than 2 match, and at most the 7 requests in scope.
      expect(estimated.total).toBeGreaterThanOrEqual(3);
      expect(estimated.total).toBeLessThanOrEqual(7);
      // With another filter beside atRiskDays, the requests at risk that it leaves out are not counted: an estimate.
      expect(await totalOf(scope, { atRiskDays: 60, requestType: ['access'] }, 2)).toMatchObject({ totalExact: false });
      const page = await queue.page(scope, { channel: ['email'] }, now, 2);
      expect(page.rows).toHaveLength(4);
      await expect(service.app.get(UnitOfWork).run(() => totalOf(scope, { requestType: ['access'] }, 2))).resolves.toMatchObject({ totalExact: false });
    });

    it('name one request by a reference, and refuse to guess between two that share it', async () => {
      const [first] = ids;
      const reference = `DSAR-${first.slice(0, 8).toUpperCase()}`;
      expect((await registry.requireByIdOrReference(scope, reference.toLowerCase())).id).toBe(first);
      await expect(registry.requireByIdOrReference({ tenantId: other }, reference)).rejects.toMatchObject({ definition: { name: 'RESOURCE_NOT_FOUND' } });
      await expect(registry.requireByIdOrReference(scope, 'DSAR-1A2B3C4D-7K3QX9M2TR4VB')).rejects.toMatchObject({ definition: { name: 'REQUEST_VALIDATION_FAILED' } });
      // A second request whose id starts with the same eight digits (one in 4 billion, but a large tenant meets it).
      const twin = `${first.slice(0, 8)}-0000-4000-8000-${first.slice(-12)}`;
      const original = await ds.manager.findOneByOrFail(RequestEntity, { id: first });
      await ds.manager.insert(RequestEntity, { ...original, id: twin, version: undefined });
      await expect(registry.requireByIdOrReference(scope, reference)).rejects.toMatchObject({ definition: { name: 'REQUEST_REFERENCE_AMBIGUOUS', status: 409 } });
      expect((await queue.page(scope, { reference }, now)).rows.map((r) => r.id).sort()).toEqual([first, twin].sort());
      expect(await totalOf(scope, { reference })).toEqual(exactly(2));
      await ds.query(`DELETE FROM ${requests} WHERE id = $1`, [twin]);
    });

    it('filter the page alike', async () => {
      const page = await queue.page(scope, { requestType: ['deletion'], sortBy: 'receivedAt', sortOrder: 'asc' }, now);
      expect(page.rows.map((r) => r.id)).toEqual([ids[6], ids[5], ids[4]]);
      const ranged = await queue.page(scope, { receivedFrom: receivedAt(6), receivedTo: receivedAt(4) }, now);
      // From 6 days ago included, to 4 days ago left out.
      expect(ranged.rows.map((r) => r.id).sort()).toEqual([ids[4], ids[5]].sort());
    });
  });

  it('rebuilds the counters from the rows, and the migration starts them from the rows already there', async () => {
    await ds.query(`UPDATE ${counts} SET n = n + 7 WHERE tenant_id = $1`, [tenant]);
    await ds.query(`DELETE FROM ${counts} WHERE tenant_id = $1`, [other]);
    expect(await drift()).not.toEqual([]);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM ${requests}`);
    const [rebuilt] = await ds.query(`SELECT ${qualifiedTable(ds, 'request_counts_rebuild')}() AS counted`);
    expect(Number(rebuilt.counted)).toBe(n);
    expect(await drift()).toEqual([]);

    // Back to before the migration (and those after it), requests written without counters, then the migrations again.
    const countersMigrated = async (): Promise<boolean> => (await ds.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [counts]))[0].present as boolean;
    while (await countersMigrated()) await ds.undoLastMigration({ transaction: 'each' });
    await expect(ds.query(`SELECT 1 FROM ${counts}`)).rejects.toThrow(/request_counts/);
    // Written as a release of that time wrote it: the entity of today has columns later migrations add (RequestTriage).
    await ds.query(
      `INSERT INTO ${requests} (id, tenant_id, workspace_id, jurisdiction, request_type, status, channel, received_at, intake_received_at,
                                policy_pack, policy_version, due_at, intake_source, version, status_changed_at)
       VALUES (gen_random_uuid(), $1, 'east', 'DE', 'access', 'received', 'email', now(), now(), 'eu-gdpr', '1.0.0', now() + interval '30 days', '{}'::jsonb, 1, now())`,
      [tenant],
    );
    await ds.runMigrations({ transaction: 'each' });
    expect(await drift()).toEqual([]);
    expect(await totalOf({ tenantId: tenant, workspaceId: 'east' })).toEqual(exactly(1));
  });
});
