import { randomUUID } from 'node:crypto';
import { domainEventCatalog, FulfilmentEventTypes, publicEventType, TaskEventTypes, Topics } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { BUS_PORT, type BusPort, BusServer, buildEvent, toBusMessage } from '@dsar/platform/messaging';
import { testHostConfig, uniqueSuffix } from '@dsar/platform/testing';
import { Ledger } from './application/ledger';
import { checkpointSettingsFrom } from './audit-settings';
import { auditLedgerServiceWith } from './index';

/**
 * The data-system task events reach the request's audit chain and timeline through audit-ledger's own consumer (the
 * in-memory bus, PGlite): every dsar.task.* event and the fulfilment override, by their public names, the erasure
 * confirmation's facts per system kept as they came (the chain proves what each system erased), the owner's contact
 * and the operator's reason only as salted hashes.
 */
describe('task events in the audit chain', () => {
  let service: HostedService;
  let ledger: Ledger;
  let bus: BusPort;
  const tenant = `t-${uniqueSuffix()}`;
  const catalog = domainEventCatalog();

  beforeAll(async () => {
    service = await hostService(auditLedgerServiceWith(checkpointSettingsFrom({})), testHostConfig({ DATA_DIR: `memory://task-audit-${uniqueSuffix()}`, DB_MIGRATIONS: 'run' }));
    await service.startConsuming();
    ledger = service.app.get(Ledger);
    bus = service.app.get<BusPort>(BUS_PORT);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  it('consumes the task topic', () => {
    expect(service.app.get(BusServer).subscribedTopics()).toContain(Topics.task);
  });

  it("chains every task event and the override on the request's chain, with each system's erasure proof", async () => {
    const requestId = randomUUID();
    let at = Date.parse('2026-12-02T09:00:00.000Z');
    const publish = async (type: string, data: Record<string, unknown>, systemKey = 'orders') => {
      const occurredAt = new Date((at += 1000)).toISOString();
      const topic = type.startsWith('dsar.task.') ? Topics.task : Topics.fulfilment;
      const base = { requestId, tenantId: tenant, workspaceId: null, actor: 'system', occurredAt };
      const event = buildEvent(catalog, '/dsar/fulfilment-delivery', {
        type,
        subject: requestId,
        tenantId: tenant,
        ...(topic === Topics.task ? { partitionKey: `${tenant}:${systemKey}` } : {}),
        data: topic === Topics.task ? { ...base, taskId: taskOf(systemKey), systemKey, action: 'erasure', ...data } : { ...base, ...data },
      });
      await bus.publish([toBusMessage(topic, event)]);
    };
    const tasks = new Map<string, string>();
    const taskOf = (key: string) => tasks.get(key) ?? (tasks.set(key, randomUUID()), tasks.get(key) as string);
    const owner = { email: 'orders-owner@example.com' };
    const erasure = (recordsAffected: number) => ({
      result: 'erased',
      recordsAffected,
      categoriesErased: ['contact', 'orders'],
      method: 'delete',
      performedBy: 'orders-connector@host-3',
      performedAt: '2026-12-02T09:03:00.000Z',
      hasExceptionReason: false,
    });
    const requested = {
      state: 'queued',
      mode: 'push',
      requestType: 'deletion',
      required: true,
      attempt: 0,
      legalDueAt: '2027-01-01T09:00:00.000Z',
      dueAt: '2026-12-05T09:00:00.000Z',
      identityTypes: ['email'],
      dataCategories: [],
      displayName: 'Orders',
      owner,
    };

    await publish(TaskEventTypes.requested, requested);
    await publish(TaskEventTypes.claimed, { worker: 'orders-1', attempt: 1, leaseExpiresAt: '2026-12-02T09:10:00.000Z' });
    await publish(TaskEventTypes.requeued, { mode: 'push', reason: 'lease_expired', attempt: 1, dueAt: '2026-12-05T09:00:00.000Z' });
    await publish(TaskEventTypes.overdue, { stage: 'reminder', dueAt: '2026-12-05T09:00:00.000Z', timeoutAt: '2026-12-09T09:00:00.000Z', state: 'queued', displayName: 'Orders', owner });
    await publish(TaskEventTypes.answered, { outcome: 'complete', state: 'complete', byOperator: false, erasure: erasure(14), fileCount: 0, hasNote: false });
    await publish(TaskEventTypes.requested, { ...requested, displayName: 'Warehouse' }, 'warehouse');
    await publish(TaskEventTypes.blocked, { blockedBy: taskOf('orders'), reason: 'dependency_failed' }, 'warehouse');
    await publish(TaskEventTypes.stopped, { state: 'action_required', reason: 'timed_out' }, 'warehouse');
    await publish(FulfilmentEventTypes.tasksOverridden, { openTasks: [{ taskId: taskOf('warehouse'), systemKey: 'warehouse', state: 'action_required' }], reason: 'Warehouse purges itself nightly' });

    const entries = await ledger.eventsOf(tenant, requestId);
    expect(entries.map((e) => publicEventType(e.eventType))).toEqual([
      'task_requested',
      'task_claimed',
      'task_requeued',
      'task_overdue',
      'task_answered',
      'task_requested',
      'task_blocked',
      'task_stopped',
      'fulfilment_tasks_overridden',
    ]);
    expect(new Set(entries.map((e) => e.eventType))).toEqual(new Set([...Object.values(TaskEventTypes), FulfilmentEventTypes.tasksOverridden]));

    // The proof of what the orders system erased, in the chain as the system confirmed it.
    const answered = entries.find((e) => e.eventType === TaskEventTypes.answered);
    expect(answered?.payload).toMatchObject({ systemKey: 'orders', taskId: taskOf('orders'), outcome: 'complete', erasure: erasure(14) });

    // Personal data only as salted hashes: the owner's contact and the operator's words.
    const chained = JSON.stringify(entries.map((e) => e.payload));
    expect(chained).not.toContain('orders-owner@example.com');
    expect(chained).not.toContain('purges itself');
    const overridden = entries.find((e) => e.eventType === FulfilmentEventTypes.tasksOverridden);
    expect(overridden?.payload).toMatchObject({ openTasks: [{ systemKey: 'warehouse', state: 'action_required' }] });
    expect(typeof overridden?.payload.reason).toBe('string');
    expect(overridden?.payload.reason).not.toBe('Warehouse purges itself nightly');
  }, 60_000);
});
