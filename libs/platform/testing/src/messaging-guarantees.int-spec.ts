import { dlqTopicOf, Topics } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { createTestDatabase, createTestTopics, kafkaBrokers } from './infrastructure';
import { EventProbe } from './event-probe';
import { STEP_EVENT, stepCatalog, StepLog, stepService } from './step-service';
import { distributedTestConfig } from './host-config';
import { waitFor } from './wait-for';
import { setTimeout as sleep } from 'node:timers/promises';
import { KafkaJSNonRetriableError } from 'kafkajs';
import { KafkaBus } from '@dsar/platform/messaging/kafka';
import { consumerGroupId } from '@dsar/platform/messaging';

/**
 * The messaging guarantees on the real broker and database: a service's
 * outbox, relay and consumer (with inbox) against PostgreSQL and Kafka.
 */
describe('outbox → Kafka → consumer, on PostgreSQL and Kafka', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let prefix: string;
  let service: HostedService;
  let steps: StepLog;
  let probeBus: KafkaBus;

  beforeAll(async () => {
    db = await createTestDatabase();
    prefix = await createTestTopics();
    service = await hostService(stepService, distributedTestConfig(db.url, prefix, { CONSUMER_MAX_ATTEMPTS: 3, CONSUMER_RETRY_BACKOFF_MS: 50 }), { catalog: stepCatalog() });
    await service.startConsuming();
    service.startPublishing();
    steps = service.app.get(StepLog);
    probeBus = new KafkaBus({ brokers: kafkaBrokers().split(','), clientId: 'probe', topicPrefix: prefix });
  });

  afterAll(async () => {
    await service?.close();
    await probeBus?.close();
    await db?.drop();
  });

  it('handles the events of each request in the order they were committed', async () => {
    const keys = ['order-a', 'order-b', 'order-c'];
    const perKey = 15;
    for (let seq = 1; seq <= perKey; seq++) {
      for (const key of keys) await steps.emit({ key, seq, fail: false });
    }
    const effects = await waitFor('all 45 steps to be handled', async () => {
      const rows = (await steps.effects()).filter((r) => keys.includes(r.key));
      return rows.length === keys.length * perKey ? rows : undefined;
    });
    for (const key of keys) {
      expect(effects.filter((r) => r.key === key).map((r) => r.seq)).toEqual(Array.from({ length: perKey }, (_, i) => i + 1));
    }
  });

  it('handles a backlog in batches: the events fetched together share a transaction, each request in order', async () => {
    const keys = ['batch-a', 'batch-b', 'batch-c'];
    const perKey = 40;
    await steps.emitAll(Array.from({ length: perKey }, (_, i) => keys.map((key) => ({ key, seq: i + 1, fail: false }))).flat());
    const effects = await waitFor('all 120 steps to be handled', async () => {
      const rows = (await steps.effects()).filter((r) => keys.includes(r.key));
      return rows.length === keys.length * perKey ? rows : undefined;
    });
    for (const key of keys) {
      expect(effects.filter((r) => r.key === key).map((r) => r.seq)).toEqual(Array.from({ length: perKey }, (_, i) => i + 1));
    }
    // One transaction per event would be 120; fetched together, the three requests' events take a few.
    expect(new Set(effects.map((r) => r.tx)).size).toBeLessThanOrEqual((keys.length * perKey) / 4);
  });

  it('moves an event whose handler keeps failing to the DLQ after the bounded retries, without holding back other requests', async () => {
    const dlq = await EventProbe.listen(probeBus, [dlqTopicOf(Topics.request)]);
    try {
      const poisonId = await steps.emit({ key: 'poison', seq: 1, fail: true });
      await steps.emit({ key: 'healthy', seq: 1, fail: false });
      await steps.emit({ key: 'poison', seq: 2, fail: false });

      const dead = await dlq.waitForMessage('the failing step on the DLQ', (m) => m.headers['ce_id'] === poisonId);
      expect(dead.key).toBe('poison');
      expect(dead.headers['dlq-reason']).toBe('handler_failed');
      expect(dead.headers['dlq-attempts']).toBe('3');
      expect(dead.headers['dlq-error']).toContain('refuses to be handled');
      expect(dead.headers['ce_type']).toBe(STEP_EVENT);
      expect(JSON.parse(dead.value).id).toBe(poisonId);

      const effects = await waitFor('the other steps to be handled', async () => {
        const rows = (await steps.effects()).filter((r) => r.key === 'healthy' || r.key === 'poison');
        return rows.length === 2 ? rows : undefined;
      });
      expect(effects.map((r) => `${r.key}/${r.seq}`).sort()).toEqual(['healthy/1', 'poison/2']);
      expect(effects.some((r) => r.event_id === poisonId)).toBe(false);
    } finally {
      await dlq.close();
    }
  });

  it('puts a message that is not a CloudEvent on the DLQ with the reason', async () => {
    const dlq = await EventProbe.listen(probeBus, [dlqTopicOf(Topics.request)]);
    try {
      await probeBus.publish([{ topic: Topics.request, key: 'garbage', value: '{"not":"an event"}', headers: {} }]);
      const dead = await dlq.waitForMessage('the garbage message on the DLQ', (m) => m.key === 'garbage');
      expect(dead.headers['dlq-reason']).toBe('invalid_envelope');
      expect(dead.headers['dlq-attempts']).toBe('0');
    } finally {
      await dlq.close();
    }
  });
});

describe('a Kafka consumer that kafkajs gives up on', () => {
  it('is started again and goes on consuming (a non-retriable crash, as when the group coordinator goes away)', async () => {
    const prefix = await createTestTopics();
    const bus = new KafkaBus({ brokers: kafkaBrokers().split(','), clientId: 'restart-test', topicPrefix: prefix });
    const seen: string[] = [];
    let crashed = false;
    try {
      const subscription = await bus.subscribe(`${prefix}restart-test`, [Topics.request], async (m) => {
        if (!crashed) {
          crashed = true;
          // What kafkajs throws when it cannot find the group coordinator: not retriable, so it would not restart.
          throw new KafkaJSNonRetriableError('Failed to find group coordinator');
        }
        seen.push(m.key);
      });
      await bus.publish([
        { topic: Topics.request, key: 'first', value: '{}', headers: {} },
        { topic: Topics.request, key: 'second', value: '{}', headers: {} },
      ]);
      await waitFor('both messages handled by the restarted consumer', async () => (seen.includes('first') && seen.includes('second') ? true : undefined), { timeoutMs: 30_000 });
      expect(crashed).toBe(true);
      await subscription.close();
    } finally {
      await bus.close();
    }
  });

  it('runs two environments that share a cluster by their topic prefix alone apart: no shared group, each handles its own events', async () => {
    const prefixes = [await createTestTopics(), await createTestTopics()];
    const buses = prefixes.map((topicPrefix, i) => new KafkaBus({ brokers: kafkaBrokers().split(','), clientId: `environment-${i}`, topicPrefix }));
    const seen: string[][] = [[], []];
    try {
      // The group each environment's service joins when KAFKA_GROUP_PREFIX is not set. With one group for both, one
      // environment's members were handed the other's partitions and its events waited past this test's 30 s.
      const groups = prefixes.map((topicPrefix) => consumerGroupId({ topicPrefix }, 'audit-ledger'));
      expect(new Set(groups).size).toBe(2);
      const subscriptions = await Promise.all(buses.map((bus, i) => bus.subscribe(groups[i], [Topics.request], async (m) => void seen[i].push(m.key))));
      await Promise.all(buses.map((bus, i) => bus.publish([{ topic: Topics.request, key: `event-of-${i}`, value: '{}', headers: {} }])));
      await waitFor('each environment to handle its own event', async () => (seen[0].length > 0 && seen[1].length > 0 ? true : undefined), { timeoutMs: 30_000 });
      expect(seen).toEqual([['event-of-0'], ['event-of-1']]);
      await Promise.all(subscriptions.map((s) => s.close()));
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
    }
  }, 60_000);

  it('can be closed while it is down between its crash and its restart (a service stopping then)', async () => {
    const prefix = await createTestTopics();
    const bus = new KafkaBus({ brokers: kafkaBrokers().split(','), clientId: 'close-after-crash', topicPrefix: prefix });
    let crashedAt: number | undefined;
    try {
      const subscription = await bus.subscribe(`${prefix}close-after-crash`, [Topics.request], async () => {
        crashedAt ??= Date.now();
        throw new KafkaJSNonRetriableError('Failed to find group coordinator');
      });
      await bus.publish([{ topic: Topics.request, key: 'only', value: '{}', headers: {} }]);
      await waitFor('the consumer to crash', async () => crashedAt, { timeoutMs: 30_000 });
      // kafkajs has stopped the crashed consumer (its group is gone) well before the restart a second later.
      await sleep(300);
      await expect(subscription.close()).resolves.toBeUndefined();
    } finally {
      await bus.close();
    }
  }, 60_000);
});
