import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { type BusMessage, type BusPort, messagingMigrations, OutboxRelay } from '@dsar/platform/messaging';
import { dataSourceOptions, openDataSource } from '@dsar/platform/persistence';
import { createTestDatabase } from './infrastructure';

/**
 * The outbox relay on a real PostgreSQL, with a bus that records what it is given: batches, the per-request key
 * check against rows another relay holds, failed publishes, and replicas draining one outbox at once.
 */
const SCHEMA = 'relay_spec';
const OUTBOX = `"${SCHEMA}".outbox`;

/** A bus that keeps the published messages in publish order; it can fail calls and take its time. */
class RecordingBus implements BusPort {
  readonly driver = 'memory' as const;
  readonly published: BusMessage[] = [];
  calls = 0;
  /** Numbers of the publish calls (from 1) that fail. */
  failing = new Set<number>();
  delayMs = 0;

  async publish(messages: BusMessage[]): Promise<void> {
    const call = ++this.calls;
    if (this.delayMs) await sleep(Math.random() * this.delayMs);
    if (this.failing.has(call)) throw new Error('the broker is away');
    this.published.push(...messages);
  }
  subscribe(): never {
    throw new Error('not used');
  }
  async isHealthy(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {
    // nothing to close
  }
}

interface Step {
  key: string;
  seq: number;
}
const stepOf = (m: BusMessage): Step => {
  const value = JSON.parse(m.value) as { subject: string; data: { seq: number } };
  return { key: value.subject, seq: value.data.seq };
};
const label = (s: Step): string => `${s.key}/${s.seq}`;

describe('OutboxRelay on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let ds: DataSource;
  const extra: DataSource[] = [];
  const running: OutboxRelay[] = [];

  const open = async (poolSize: number): Promise<DataSource> =>
    openDataSource(
      await dataSourceOptions({ driver: 'postgres', url: db.url, dataDir: '', poolSize, schema: SCHEMA, entities: [], migrations: messagingMigrations, applicationName: 'relay-spec' }),
      'run',
    );
  /** A started relay (a stopped one ends its drain after one batch) that polls too rarely to matter here. */
  const relayOn = (dataSource: DataSource, bus: BusPort, batchSize: number, log: string[] = []): OutboxRelay => {
    const relay = new OutboxRelay(dataSource, bus, {
      service: 'relay-spec',
      schema: SCHEMA,
      batchSize,
      pollIntervalMs: 60_000,
      serializedSession: false,
      log: (level, message, e) => log.push(`${level}: ${message} ${JSON.stringify(e ?? {})}`),
    });
    relay.start();
    running.push(relay);
    return relay;
  };
  /** Appends `count` events cycling over `keys` (new to the outbox), numbered from 1 per key. */
  const append = async (keys: string[], count: number): Promise<Step[]> => {
    const seen = new Map<string, number>();
    const steps: Step[] = [];
    for (let i = 0; i < count; i++) {
      const key = keys[i % keys.length];
      const seq = (seen.get(key) ?? 0) + 1;
      seen.set(key, seq);
      steps.push({ key, seq });
    }
    await ds.query(
      `INSERT INTO ${OUTBOX} (event_id, event_type, topic, partition_key, tenant_id, envelope, headers)
       SELECT e, 'dsar.test.step.v1', 'dsar.request.v1', s.key, 'tenant-a',
              jsonb_build_object('id', e::text, 'subject', s.key, 'data', jsonb_build_object('seq', s.seq)),
              jsonb_build_object('ce_id', e::text)
         FROM (SELECT gen_random_uuid() AS e, key, seq, n FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS u(key, seq, n) OFFSET 0) s
        ORDER BY s.n`,
      [steps.map((s) => s.key), steps.map((s) => s.seq)],
    );
    return steps;
  };
  /** Runs `during` while another relay's open transaction holds the row `id` (locked, as a claim locks it). */
  const whileHeld = async <T>(id: string, during: () => Promise<T>): Promise<T> => {
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT id FROM ${OUTBOX} WHERE id = $1 FOR UPDATE`, [id]);
      const result = await during();
      await other.query('ROLLBACK');
      return result;
    } finally {
      await other.end();
    }
  };
  const labels = (bus: RecordingBus): string[] => bus.published.map((m) => label(stepOf(m)));
  const unpublished = async (): Promise<number> => (await ds.query(`SELECT count(*)::int AS n FROM ${OUTBOX} WHERE processed_at IS NULL`))[0].n;
  /** Every request's events, first deliveries only, in the order they were published. */
  const firstDeliveries = (bus: RecordingBus): Map<string, number[]> => {
    const seen = new Set<string>();
    const byKey = new Map<string, number[]>();
    for (const s of bus.published.map(stepOf)) {
      if (seen.has(label(s))) continue;
      seen.add(label(s));
      byKey.set(s.key, [...(byKey.get(s.key) ?? []), s.seq]);
    }
    return byKey;
  };
  const inOrder = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await open(10);
  });

  afterEach(async () => {
    for (const relay of running.splice(0)) await relay.stop();
    await ds.query(`UPDATE ${OUTBOX} SET processed_at = now() WHERE processed_at IS NULL`);
  });

  afterAll(async () => {
    for (const d of [ds, ...extra]) await d?.destroy();
    await db?.drop();
  });

  it('publishes a backlog of many batches once each, in commit order, and marks every row', async () => {
    const bus = new RecordingBus();
    const steps = await append(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 95);
    await relayOn(ds, bus, 10).drainOnce();
    expect(labels(bus)).toEqual(steps.map(label));
    expect(await unpublished()).toBe(0);
    const [row] = await ds.query(`SELECT min(attempts)::int AS min, max(attempts)::int AS max FROM ${OUTBOX}`);
    expect(row).toEqual({ min: 1, max: 1 });
  });

  it('publishes the row as it was stored: topic, key, headers and the event JSON', async () => {
    const bus = new RecordingBus();
    await append(['k'], 1);
    await relayOn(ds, bus, 10).drainOnce();
    const [message] = bus.published;
    const [row] = await ds.query(`SELECT envelope, headers FROM ${OUTBOX} ORDER BY id DESC LIMIT 1`);
    expect({ ...message, value: JSON.parse(message.value) }).toEqual({ topic: 'dsar.request.v1', key: 'k', value: row.envelope, headers: row.headers });
  });

  it.each([
    { held: 'its first row', row: 0 },
    // A relay that found a row locked skips past it: a batch can then have rows of a request on both sides of it.
    { held: 'a row between two that a batch can claim', row: 1 },
  ])("leaves a request while another relay holds $held, and publishes it in order once that is released", async ({ row }) => {
    const key = `held-${row}`;
    const free = `free-${row}`;
    await append([key, free], 6);
    const ids = await ds.query(`SELECT id FROM ${OUTBOX} WHERE partition_key = $1 ORDER BY id`, [key]);
    const bus = new RecordingBus();
    const relay = await whileHeld(ids[row].id, async () => {
      const r = relayOn(ds, bus, 10);
      await r.drainOnce();
      expect(labels(bus)).toEqual([`${free}/1`, `${free}/2`, `${free}/3`]);
      return r;
    });
    await relay.drainOnce();
    expect(labels(bus)).toEqual([`${free}/1`, `${free}/2`, `${free}/3`, `${key}/1`, `${key}/2`, `${key}/3`]);
  });

  it('marks nothing that a failed publish did not send, rolls back the batch claimed ahead, and gives its connections back', async () => {
    const small = await open(3);
    extra.push(small);
    const bus = new RecordingBus();
    const log: string[] = [];
    const keys = Array.from({ length: 11 }, (_, i) => `f${i}`);
    const steps = await append(keys, 60);
    // The third publish fails, while the fourth batch is claimed already; then the next ones fail too, in more
    // rounds than the pool has connections (the relay's own start-up round may take the first of them).
    bus.failing = new Set([3, 4, 5, 6, 7]);
    const relay = relayOn(small, bus, 10, log);
    for (let round = 0; round < 5; round++) await relay.drainOnce();
    expect(log.length).toBeGreaterThanOrEqual(4);
    expect(log[0]).toContain('the broker is away');
    const sent = new Set(labels(bus));
    const marked: Step[] = await small.query(
      `SELECT partition_key AS key, (envelope->'data'->>'seq')::int AS seq FROM ${OUTBOX} WHERE processed_at IS NOT NULL AND partition_key = ANY($1)`,
      [keys],
    );
    expect(marked.length).toBeGreaterThan(0);
    for (const m of marked) expect(sent.has(label(m))).toBe(true);
    const [failed] = await small.query(`SELECT count(*)::int AS n FROM ${OUTBOX} WHERE processed_at IS NULL AND last_error = 'the broker is away'`);
    expect(failed.n).toBeGreaterThan(0);

    await relay.drainOnce();
    expect(await unpublished()).toBe(0);
    const delivered = firstDeliveries(bus);
    for (const key of keys) expect(delivered.get(key)).toEqual(inOrder(steps.filter((s) => s.key === key).length));
  });

  it('keeps every request in order while two replicas drain one outbox at once', async () => {
    const second = await open(10);
    extra.push(second);
    // A few rounds: where the replicas' claims meet depends on timing.
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: 15 }, (_, i) => `r${round}-${i}`);
      const steps = await append(keys, 600);
      const bus = new RecordingBus();
      bus.delayMs = 3;
      const replicas = [relayOn(ds, bus, 20), relayOn(second, bus, 20)];
      const deadline = performance.now() + 60_000;
      while ((await unpublished()) > 0 && performance.now() < deadline) await Promise.all(replicas.map((r) => r.drainOnce()));
      expect(await unpublished()).toBe(0);
      const delivered = firstDeliveries(bus);
      for (const key of keys) expect(delivered.get(key)).toEqual(inOrder(steps.filter((s) => s.key === key).length));
      for (const relay of running.splice(0)) await relay.stop();
    }
  });
});
