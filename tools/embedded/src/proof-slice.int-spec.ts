import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { type NewRequestCommand, RequestEventTypes, Topics } from '@dsar/contracts';
import { type HostConfig, type HostedService, hostService } from '@dsar/platform/host';
import { type BusMessage, type BusPort, MemoryBus } from '@dsar/platform/messaging';
import { KafkaBus } from '@dsar/platform/messaging/kafka';
import { Metrics } from '@dsar/platform/observability';
import { createTestDatabase, createTestTopics, distributedTestConfig, EventProbe, kafkaBroker, kafkaBrokers, testHostConfig, waitFor } from '@dsar/platform/testing';
import { auditLedgerService, Ledger } from '@dsar/services/audit-ledger';
import { lifecycleClockService, RequestRegistry } from '@dsar/services/lifecycle-clock';
import { type RunningSystem, startSystem } from './system';

/**
 * The proof slice: lifecycle-clock commits a request and its
 * `dsar.request.created.v1` outbox row in one transaction, the relay
 * publishes it, and audit-ledger records it behind its inbox. Once on
 * PostgreSQL + Kafka (each service its own Nest app), once in embedded mode.
 */
const tenantA = { tenantId: 'tenant-a' };
const newRequest = (): NewRequestCommand => ({
  jurisdiction: 'EU',
  requestType: 'access',
  requestTypeInferred: false,
  intakeSource: { channel: 'api', rawText: 'Please send me a copy of my data.', receivedAt: '2026-11-02T09:30:00Z' },
});

/** The message the relay published for the request (its outbox row is deleted once it is published), to send it again. */
async function publishedMessageOf(probe: EventProbe, requestId: string): Promise<BusMessage> {
  const { topic, key, value, headers } = await probe.waitForMessage(`the published creation of ${requestId}`, (m) => m.key === requestId && m.headers['ce_type'] === RequestEventTypes.created);
  return { topic, key, value, headers };
}

/** Listens on the request topic from before `during` runs, for `publishedMessageOf`. */
async function withRequestProbe<T>(bus: BusPort, during: (probe: EventProbe) => Promise<T>): Promise<T> {
  const probe = await EventProbe.listen(bus, [Topics.request]);
  try {
    return await during(probe);
  } finally {
    await probe.close();
  }
}

/** How many rows of the request's creation lifecycle-clock's outbox holds: one until it is published, none after. */
async function outboxRowsOf(service: HostedService, requestId: string): Promise<number> {
  const [row] = await service.app.get(DataSource).query(`SELECT count(*)::int AS n FROM lifecycle_clock.outbox WHERE partition_key = $1 AND event_type = $2`, [requestId, RequestEventTypes.created]);
  return row.n;
}

async function duplicatesSeen(): Promise<number> {
  const metric = await Metrics.get().consumerDuplicates.get();
  return metric.values.filter((v) => v.labels.service === 'audit-ledger' && v.labels.event_type === RequestEventTypes.created).reduce((sum, v) => sum + v.value, 0);
}

describe('proof slice in distributed mode (PostgreSQL + Kafka)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let lifecycle: HostedService;
  let audit: HostedService;
  let bus: KafkaBus;

  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = await createTestTopics();
    const config: HostConfig = distributedTestConfig(db.url, prefix, { OUTBOX_POLL_MS: 250 });
    lifecycle = await hostService(lifecycleClockService, config);
    audit = await hostService(auditLedgerService, config);
    for (const s of [lifecycle, audit]) await s.startConsuming();
    for (const s of [lifecycle, audit]) s.startPublishing();
    bus = new KafkaBus({ brokers: kafkaBrokers().split(','), clientId: 'redeliver', topicPrefix: prefix });
  });

  afterAll(async () => {
    await bus?.close();
    await audit?.close();
    await lifecycle?.close();
    await db?.drop();
  });

  it('records a created request in the audit ledger', async () => {
    const request = await lifecycle.app.get(RequestRegistry).create(tenantA, newRequest());
    const events = await waitFor('the ledger entry', async () => {
      const rows = await audit.app.get(Ledger).eventsOf('tenant-a', request.id);
      return rows.length > 0 ? rows : undefined;
    });
    expect(events).toHaveLength(1);
    expect(events[0].eventType).toBe(RequestEventTypes.created);
    expect(events[0].payload).toMatchObject({ requestId: request.id, jurisdiction: 'EU', status: 'received' });
  });

  it('gives a redelivered event (same event id, sent twice more) its effect once, and keeps no published row', async () => {
    const { request, message } = await withRequestProbe(bus, async (probe) => {
      const created = await lifecycle.app.get(RequestRegistry).create(tenantA, newRequest());
      return { request: created, message: await publishedMessageOf(probe, created.id) };
    });
    const ledger = audit.app.get(Ledger);
    await waitFor('the first delivery', async () => (await ledger.eventsOf('tenant-a', request.id)).length === 1);
    await waitFor('the published row to be deleted', async () => (await outboxRowsOf(lifecycle, request.id)) === 0);
    const before = await duplicatesSeen();
    await bus.publish([message]);
    await bus.publish([message]);
    await waitFor('both redeliveries to reach the consumer', async () => (await duplicatesSeen()) - before === 2);
    expect(await ledger.eventsOf('tenant-a', request.id)).toHaveLength(1);
  });

  it('publishes an event committed while the broker is down once the broker is back', async () => {
    const ledger = audit.app.get(Ledger);
    await kafkaBroker('stop');
    let requestId: string;
    try {
      const request = await lifecycle.app.get(RequestRegistry).create(tenantA, newRequest());
      requestId = request.id;
      expect(await outboxRowsOf(lifecycle, request.id)).toBe(1);
    } finally {
      await kafkaBroker('start');
    }
    const events = await waitFor(
      'the event to arrive after the broker restart',
      async () => {
        const rows = await ledger.eventsOf('tenant-a', requestId);
        return rows.length > 0 ? rows : undefined;
      },
      { timeoutMs: 120000, intervalMs: 250 },
    );
    expect(events).toHaveLength(1);
  });
});

describe('proof slice in embedded mode (PGlite + in-memory bus)', () => {
  let dataDir: string;
  let system: RunningSystem | undefined;
  const config = () => testHostConfig({ DATA_DIR: dataDir, PORT: 0 });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'dsar-embedded-'));
  });

  afterAll(async () => {
    await system?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('moves the event end to end, drops a redelivery, and keeps the data across a restart', async () => {
    system = await startSystem(config());
    const lifecycle = system.services.get('lifecycle-clock')!;
    const ledgerOf = () => system!.services.get('audit-ledger')!.app.get(Ledger);
    const { request, message } = await withRequestProbe(MemoryBus.instance(), async (probe) => {
      const created = await lifecycle.app.get(RequestRegistry).create(tenantA, newRequest());
      return { request: created, message: await publishedMessageOf(probe, created.id) };
    });
    await waitFor('the ledger entry', async () => (await ledgerOf().eventsOf('tenant-a', request.id)).length === 1);
    await waitFor('the published row to be deleted', async () => (await outboxRowsOf(lifecycle, request.id)) === 0);

    const before = await duplicatesSeen();
    await MemoryBus.instance().publish([message]);
    await MemoryBus.instance().publish([message]);
    expect((await duplicatesSeen()) - before).toBe(2);
    expect(await ledgerOf().eventsOf('tenant-a', request.id)).toHaveLength(1);

    await system.close();
    system = await startSystem(config());
    const ready = await fetch(`${system.gatewayUrl}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ledgerOf().eventsOf('tenant-a', request.id)).toHaveLength(1);
    const again = await system.services.get('lifecycle-clock')!.app.get(RequestRegistry).find(tenantA, request.id);
    expect(again?.status).toBe('received');
    expect(Topics.request).toBe('dsar.request.v1');
  });
});
