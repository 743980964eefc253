import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { domainEventCatalog, type NewRequestCommand, type QueueQuery, TaskEventTypes, Topics } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import type { TenantScope } from '@dsar/platform/http';
import { BUS_PORT, type BusPort, buildEvent, toBusMessage } from '@dsar/platform/messaging';
import { qualifiedTable, UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { RequestQueue } from './application/request-queue';
import { RequestRegistry } from './application/request-registry';
import { lifecycleClockService } from './index';

/**
 * The queue's `waitingOnSystems` filter from end to end inside lifecycle-clock: task events published on the bus
 * (dsar.task.v1, as fulfilment-delivery's outbox sends them) go through the consumer's inbox into the copy of the
 * request's tasks, and the queue filters on it, with its other filters, on both drivers.
 */
describe.each([
  ['PostgreSQL', 'postgres'],
  ['PGlite', 'pglite'],
] as const)('requests waiting on their data systems, on %s', (_name, driver) => {
  let drop: (() => Promise<void>) | undefined;
  let service: HostedService;
  let ds: DataSource;
  let registry: RequestRegistry;
  let queue: RequestQueue;
  let bus: BusPort;
  const tenant = `t-${uniqueSuffix()}`;
  const scope: TenantScope = { tenantId: tenant };
  const catalog = domainEventCatalog();
  const now = new Date();

  beforeAll(async () => {
    if (driver === 'postgres') {
      const db = await createTestDatabase();
      drop = db.drop;
      service = await hostService(lifecycleClockService, testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 5 }));
    } else {
      service = await hostService(lifecycleClockService, testHostConfig({ DATA_DIR: `memory://system-tasks-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }));
    }
    await service.startConsuming();
    registry = service.app.get(RequestRegistry);
    queue = service.app.get(RequestQueue);
    bus = service.app.get<BusPort>(BUS_PORT);
    ds = service.app.get(UnitOfWork).dataSource;
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  function command(requestType: NewRequestCommand['requestType']): NewRequestCommand {
    return {
      jurisdiction: 'DE',
      requestType,
      requestTypeInferred: false,
      intakeSource: { channel: 'email', rawText: 'Please handle my data.', receivedAt: new Date(now.getTime() - 86_400_000).toISOString() },
    };
  }

  let clock = now.getTime();
  /** Publishes one task event on the bus, as fulfilment-delivery's relay does, and returns when lifecycle-clock took it. */
  async function publish(type: string, task: { id: string; requestId: string; systemKey: string }, extra: Record<string, unknown>, at?: Date): Promise<string> {
    const occurredAt = at ?? new Date((clock += 1000));
    const event = buildEvent(catalog, '/dsar/fulfilment-delivery', {
      type,
      subject: task.requestId,
      partitionKey: `${tenant}:${task.systemKey}`,
      tenantId: tenant,
      data: {
        requestId: task.requestId,
        tenantId: tenant,
        workspaceId: null,
        taskId: task.id,
        systemKey: task.systemKey,
        action: 'access',
        actor: 'system',
        occurredAt: occurredAt.toISOString(),
        ...extra,
      },
    });
    await bus.publish([toBusMessage(Topics.task, event)]);
    return event.id;
  }

  const requested = (task: { id: string; requestId: string; systemKey: string }, required = true, state: 'queued' | 'waiting' = 'queued') =>
    publish(TaskEventTypes.requested, task, {
      state,
      mode: 'push',
      requestType: 'access',
      required,
      attempt: 0,
      legalDueAt: new Date(now.getTime() + 30 * 86_400_000).toISOString(),
      dueAt: new Date(now.getTime() + 3 * 86_400_000).toISOString(),
      identityTypes: ['email'],
      dataCategories: [],
      displayName: task.systemKey,
      owner: { email: 'owner@example.org' },
    });
  const answered = (task: { id: string; requestId: string; systemKey: string }, outcome: string, state: string, at?: Date, extra: Record<string, unknown> = {}) =>
    publish(TaskEventTypes.answered, task, { outcome, state, byOperator: false, fileCount: 0, hasNote: false, ...extra }, at);

  const ids = async (query: Partial<QueueQuery>) => {
    const page = await queue.page(scope, { limit: 200, ...query } as QueueQuery);
    return { ids: page.rows.map((r) => r.id).sort(), total: page.total };
  };
  const sorted = (...list: string[]) => [...list].sort();

  it('lists a request while one of its required tasks is open, combined with the other filters, and follows each task to its end', async () => {
    const access = (await registry.create(scope, command('access'), now)).id;
    const deletion = (await registry.create(scope, command('deletion'), now)).id;
    const untouched = (await registry.create(scope, command('access'), now)).id;
    const crm = { id: randomUUID(), requestId: access, systemKey: 'crm' };
    const shop = { id: randomUUID(), requestId: access, systemKey: 'shop' };
    const optional = { id: randomUUID(), requestId: deletion, systemKey: 'newsletter' };

    await requested(crm);
    await requested(shop);
    await requested(optional, false);
    expect(await ids({ waitingOnSystems: true })).toEqual({ ids: [access], total: 1 });
    expect(await ids({ waitingOnSystems: false })).toEqual({ ids: sorted(deletion, untouched), total: 2 });
    // With the other filters: the type keeps the access requests, the reference one request.
    expect(await ids({ waitingOnSystems: true, requestType: ['deletion'] })).toEqual({ ids: [], total: 0 });
    expect(await ids({ waitingOnSystems: false, requestType: ['access'] })).toEqual({ ids: [untouched], total: 1 });
    expect((await ids({ waitingOnSystems: true, status: ['received'], atRiskDays: 3650 })).ids).toEqual([access]);

    // A claim, a retryable error (queued again) and a requeue keep the task open; the other task finishes.
    await publish(TaskEventTypes.claimed, crm, { worker: 'w1', attempt: 1, leaseExpiresAt: new Date(clock + 300_000).toISOString() });
    await answered(crm, 'error', 'queued', undefined, { retryable: true });
    await publish(TaskEventTypes.requeued, crm, { mode: 'push', reason: 'retryable_error', attempt: 1, dueAt: new Date(clock).toISOString() });
    await answered(shop, 'not_found', 'not_found');
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([access]);

    // An answer that settles the last open required task takes the request off the filter.
    const done = new Date((clock += 1000));
    await answered(crm, 'complete', 'complete', done);
    expect(await ids({ waitingOnSystems: true })).toEqual({ ids: [], total: 0 });
    expect((await ids({ waitingOnSystems: false })).ids).toEqual(sorted(access, deletion, untouched));

    // An older event delivered late (an overdue reminder stamped before the answer) changes nothing.
    await publish(
      TaskEventTypes.overdue,
      crm,
      {
        stage: 'reminder',
        dueAt: new Date(now.getTime()).toISOString(),
        timeoutAt: new Date(now.getTime() + 86_400_000).toISOString(),
        state: 'claimed',
        displayName: 'crm',
        owner: { email: 'owner@example.org' },
      },
      new Date(done.getTime() - 500),
    );
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([]);

    // An operator's retry opens it again; the request's closure cancels it.
    await publish(TaskEventTypes.requeued, crm, { mode: 'push', reason: 'operator_retry', attempt: 1, dueAt: new Date(clock).toISOString() });
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([access]);
    await publish(TaskEventTypes.stopped, crm, { state: 'cancelled', reason: 'request_closed' });
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([]);

    // A task left to an operator (action required), a blocked one, and one failed for good (it blocks the fulfilment) wait.
    const blocked = { id: randomUUID(), requestId: deletion, systemKey: 'warehouse' };
    await requested(blocked);
    await publish(TaskEventTypes.blocked, blocked, { blockedBy: optional.id, reason: 'dependency_failed' });
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([deletion]);
    await publish(TaskEventTypes.stopped, blocked, { state: 'action_required', reason: 'timed_out' });
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([deletion]);
    await answered(blocked, 'error', 'error', undefined, { retryable: false });
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([deletion]);
    // Until an operator settles it: skipped with a reason.
    await answered(blocked, 'skipped', 'skipped', undefined, { byOperator: true });
    expect((await ids({ waitingOnSystems: true })).ids).toEqual([]);
  }, 60_000);

  it('applies a redelivered event once, and keeps one row per task', async () => {
    const request = (await registry.create(scope, command('access'), now)).id;
    const task = { id: randomUUID(), requestId: request, systemKey: 'billing' };
    const eventId = await requested(task);
    await answered(task, 'complete', 'complete');
    // The same requested event again (same id): the inbox drops it, so the task stays settled.
    const again = buildEvent(catalog, '/dsar/fulfilment-delivery', {
      id: eventId,
      type: TaskEventTypes.requested,
      subject: request,
      tenantId: tenant,
      data: {
        requestId: request,
        tenantId: tenant,
        workspaceId: null,
        taskId: task.id,
        systemKey: 'billing',
        action: 'access',
        actor: 'system',
        occurredAt: new Date((clock += 1000)).toISOString(),
        state: 'queued',
        mode: 'push',
        requestType: 'access',
        required: true,
        attempt: 0,
        legalDueAt: now.toISOString(),
        dueAt: now.toISOString(),
        identityTypes: [],
        dataCategories: [],
        displayName: 'billing',
        owner: {},
      },
    });
    await bus.publish([toBusMessage(Topics.task, again)]);
    expect((await ids({ waitingOnSystems: true })).ids).not.toContain(request);
    const rows: Array<{ n: number; open: boolean }> = await ds.query(`SELECT count(*)::int AS n, bool_or(open) AS open FROM ${qualifiedTable(ds, 'request_system_tasks')} WHERE request_id = $1`, [
      request,
    ]);
    expect(rows[0]).toEqual({ n: 1, open: false });
  }, 60_000);
});
