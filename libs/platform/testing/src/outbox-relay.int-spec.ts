import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { type BusMessage, type BusPort, claimStatement, messagingMigrations, OutboxRelay } from '@dsar/platform/messaging';
import { dataSourceOptions, openDataSource } from '@dsar/platform/persistence';
import { createTestDatabase } from './infrastructure';
import { waitFor } from './wait-for';

/**
 * The outbox relay on a real PostgreSQL, with a bus that records what it is given: batches claimed ahead, the
 * per-request key check against rows another relay holds, failed publishes, replicas draining one outbox at once, and
 * the relay's connections ended by the server in the middle of a batch, as a restart ends them.
 */
const SCHEMA = 'relay_spec';
const OUTBOX = `"${SCHEMA}".outbox`;

/** A bus that keeps the published messages in publish order; it can fail calls, take its time, and act during a call. */
class RecordingBus implements BusPort {
  readonly driver = 'memory' as const;
  readonly published: BusMessage[] = [];
  calls = 0;
  /** Numbers of the publish calls (from 1) that fail. */
  failing = new Set<number>();
  delayMs = 0;
  /** Runs inside a publish call, before it is acknowledged. */
  during?: (call: number) => Promise<void>;

  async publish(messages: BusMessage[]): Promise<void> {
    const call = ++this.calls;
    if (this.delayMs) await sleep(Math.random() * this.delayMs);
    await this.during?.(call);
    if (this.failing.has(call)) throw new Error('the broker is away');
    this.published.push(...messages);
  }
  subscribe(): never {
    throw new Error('not used');
  }
  subscribeBatches(): never {
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
  let admin: Client;
  const extra: DataSource[] = [];
  const running: OutboxRelay[] = [];

  const open = async (poolSize: number, applicationName = 'relay-spec'): Promise<DataSource> =>
    openDataSource(await dataSourceOptions({ driver: 'postgres', url: db.url, dataDir: '', poolSize, schema: SCHEMA, entities: [], migrations: messagingMigrations, applicationName }), 'run');
  /** A started relay (a stopped one ends its drain after one batch) that polls every `pollIntervalMs`. */
  const relayOn = (dataSource: DataSource, bus: BusPort, batchSize: number, { log = [] as string[], pollIntervalMs = 60_000 } = {}): OutboxRelay => {
    const relay = new OutboxRelay(dataSource, bus, {
      service: 'relay-spec',
      schema: SCHEMA,
      batchSize,
      pollIntervalMs,
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
  /** Ends every connection of the DataSources named `applicationName` on this test's database, as a restart ends them. */
  const terminateBackends = async (applicationName: string): Promise<number> =>
    (
      await admin.query(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()`,
        [applicationName],
      )
    ).rows[0].n;
  /** The connections of `applicationName` on this test's database, by state. */
  const sessions = async (applicationName: string): Promise<string[]> =>
    (await admin.query(`SELECT state FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 ORDER BY state`, [applicationName])).rows.map(
      (r: { state: string }) => r.state,
    );
  const labels = (bus: RecordingBus): string[] => bus.published.map((m) => label(stepOf(m)));
  const remaining = async (): Promise<number> => (await admin.query(`SELECT count(*)::int AS n FROM ${OUTBOX}`)).rows[0].n;
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
  const expectEveryRequestInOrder = (bus: RecordingBus, steps: Step[]): void => {
    const delivered = firstDeliveries(bus);
    for (const key of new Set(steps.map((s) => s.key))) expect([key, delivered.get(key)]).toEqual([key, inOrder(steps.filter((s) => s.key === key).length)]);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await open(10);
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });

  afterEach(async () => {
    for (const relay of running.splice(0)) await relay.stop();
    await admin.query(`DELETE FROM ${OUTBOX}`);
  });

  afterAll(async () => {
    await admin?.end();
    for (const d of [ds, ...extra]) await d?.destroy();
    await db?.drop();
  });

  it('publishes a backlog of many batches once each, in commit order, and deletes every row it published', async () => {
    const bus = new RecordingBus();
    const steps = await append(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 95);
    await relayOn(ds, bus, 10).drainOnce();
    expect(labels(bus)).toEqual(steps.map(label));
    expect(await remaining()).toBe(0);
  });

  it('claims the next batch while one is being published, on a connection of its own', async () => {
    const bus = new RecordingBus();
    const steps = await append(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 40);
    const seenDuringPublish: string[][] = [];
    bus.during = async () => {
      // The claim ahead is sent before the publish starts; give it the time to be answered.
      await sleep(50);
      seenDuringPublish.push(await sessions('relay-spec'));
    };
    await relayOn(ds, bus, 10).drainOnce();
    expect(labels(bus)).toEqual(steps.map(label));
    // While the first batch is published, its own transaction and the one of the batch claimed ahead are open.
    expect(seenDuringPublish[0].filter((s) => s === 'idle in transaction').length).toBe(2);
    expect(await sessions('relay-spec')).not.toContain('idle in transaction');
  });

  it('leaves rows that an earlier version of the relay marked published', async () => {
    const bus = new RecordingBus();
    await append(['old'], 2);
    await ds.query(`UPDATE ${OUTBOX} SET processed_at = now()`);
    const steps = await append(['new'], 2);
    await relayOn(ds, bus, 10).drainOnce();
    expect(labels(bus)).toEqual(steps.map(label));
    expect(await remaining()).toBe(2);
    const relay = new OutboxRelay(ds, bus, { service: 'relay-spec', schema: SCHEMA, batchSize: 10, pollIntervalMs: 60_000, serializedSession: false, log: () => undefined });
    expect(await relay.backlog()).toEqual({ count: 0, oldestAgeSeconds: 0 });
  });

  it('claims in about the pages it claims, even on statistics taken while every row was marked published', async () => {
    // What an upgrade leaves (every row marked by the earlier version) and what the planner then believes: the
    // partial indexes on unpublished rows empty. A lookup per request planned on that walked the whole backlog once per
    // request and more (120,000 to 540,000 buffers a claim, 0.5–1.2 s); the claim must read about what it claims.
    await append(['old'], 5000);
    await ds.query(`UPDATE ${OUTBOX} SET processed_at = now()`);
    await admin.query(`VACUUM ANALYZE ${OUTBOX}`);
    await append(
      Array.from({ length: 3000 }, (_, i) => `backlog-${i}`),
      3000,
    );
    const claim = claimStatement(OUTBOX, 100).replace(/^BEGIN[^;]*;/, '');
    const buffers: number[] = [];
    await admin.query('BEGIN');
    try {
      for (let round = 0; round < 3; round++) {
        const [{ 'QUERY PLAN': plan }] = (await admin.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${claim}`)).rows;
        const top = plan[0].Plan as { 'Shared Hit Blocks': number; 'Shared Read Blocks': number };
        buffers.push(top['Shared Hit Blocks'] + top['Shared Read Blocks']);
      }
    } finally {
      await admin.query('ROLLBACK');
    }
    for (const b of buffers) expect(b).toBeLessThan(3000);
  });

  it('publishes the row as it was stored: topic, key, headers and the event JSON', async () => {
    const bus = new RecordingBus();
    await append(['k'], 1);
    const [row] = await ds.query(`SELECT envelope, headers FROM ${OUTBOX} ORDER BY id DESC LIMIT 1`);
    await relayOn(ds, bus, 10).drainOnce();
    const [message] = bus.published;
    expect({ ...message, value: JSON.parse(message.value) }).toEqual({ topic: 'dsar.request.v1', key: 'k', value: row.envelope, headers: row.headers });
  });

  it.each([
    { held: 'its first row', row: 0 },
    // A relay that found a row locked skips past it: a batch can then have rows of a request on both sides of it.
    { held: 'a row between two that a batch can claim', row: 1 },
  ])('leaves a request while another relay holds $held, and publishes it in order once that is released', async ({ row }) => {
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

  it('deletes nothing that a failed publish did not send, rolls back the batch claimed ahead, and gives its connections back', async () => {
    const small = await open(3, 'relay-spec-small');
    extra.push(small);
    const bus = new RecordingBus();
    const log: string[] = [];
    const keys = Array.from({ length: 11 }, (_, i) => `f${i}`);
    const steps = await append(keys, 60);
    // The third publish fails, while the fourth batch is claimed already; then the next ones fail too, in more
    // rounds than the pool has connections.
    bus.failing = new Set([3, 4, 5, 6, 7]);
    const relay = relayOn(small, bus, 10, { log });
    for (let round = 0; round < 5; round++) await relay.drainOnce();
    expect(log.length).toBeGreaterThanOrEqual(4);
    expect(log[0]).toContain('the broker is away');
    const sent = new Set(labels(bus));
    const left: Step[] = await small.query(`SELECT partition_key AS key, (envelope->'data'->>'seq')::int AS seq FROM ${OUTBOX}`);
    expect(left.length).toBeGreaterThan(0);
    expect(left.length).toBeLessThan(steps.length);
    for (const s of steps) if (!sent.has(label(s))) expect(left.map(label)).toContain(label(s));
    const [failed] = await small.query(`SELECT count(*)::int AS n FROM ${OUTBOX} WHERE last_error = 'the broker is away'`);
    expect(failed.n).toBeGreaterThan(0);
    expect(await sessions('relay-spec-small')).not.toContain('idle in transaction');

    await relay.drainOnce();
    expect(await remaining()).toBe(0);
    expectEveryRequestInOrder(bus, steps);
  });

  it('keeps every request in order while two replicas drain one outbox at once', async () => {
    const second = await open(10, 'relay-spec-second');
    extra.push(second);
    // A few rounds: where the replicas' claims meet depends on timing.
    for (let round = 0; round < 3; round++) {
      const keys = Array.from({ length: 15 }, (_, i) => `r${round}-${i}`);
      const steps = await append(keys, 600);
      const bus = new RecordingBus();
      bus.delayMs = 3;
      const replicas = [relayOn(ds, bus, 20), relayOn(second, bus, 20)];
      const deadline = performance.now() + 60_000;
      while ((await remaining()) > 0 && performance.now() < deadline) await Promise.all(replicas.map((r) => r.drainOnce()));
      expect(await remaining()).toBe(0);
      expectEveryRequestInOrder(bus, steps);
      for (const relay of running.splice(0)) await relay.stop();
    }
  }, 90_000);

  describe('when the server ends its connections in the middle of a batch (as a PostgreSQL restart does)', () => {
    it('while a batch is being published: the batch is sent again, nothing is lost, each request stays in order, and the relay goes on by itself', async () => {
      const target = await open(5, 'relay-spec-restart');
      extra.push(target);
      const bus = new RecordingBus();
      const log: string[] = [];
      const keys = Array.from({ length: 9 }, (_, i) => `p${i}`);
      const steps = await append(keys, 250);
      let terminated = 0;
      bus.during = async (call) => {
        // The second batch: its transaction is open, and the third one is claimed ahead or being claimed.
        if (call === 2) terminated = await terminateBackends('relay-spec-restart');
      };
      relayOn(target, bus, 20, { log, pollIntervalMs: 100 });
      await waitFor('the relay to publish everything after the connections ended', async () => (await remaining()) === 0, { timeoutMs: 60_000, intervalMs: 100 });
      expect(terminated).toBeGreaterThanOrEqual(1);
      expect(log.some((l) => l.includes('outbox relay could not publish'))).toBe(true);
      // The second batch was acknowledged but its delete never committed: it went out again.
      const sent = labels(bus);
      expect(sent.length).toBeGreaterThan(steps.length);
      expect(new Set(sent)).toEqual(new Set(steps.map(label)));
      expectEveryRequestInOrder(bus, steps);
      // Stopped first: a running relay polls every 100 ms, and its claim is a transaction for a moment. Once it has
      // stopped, a transaction still open is one the restart left behind.
      for (const relay of running.splice(0)) await relay.stop();
      expect(await sessions('relay-spec-restart')).not.toContain('idle in transaction');
    }, 90_000);

    it('while a claim waits for the table: the claim fails, and the relay claims again by itself once the server answers', async () => {
      const target = await open(5, 'relay-spec-claim');
      extra.push(target);
      const bus = new RecordingBus();
      const log: string[] = [];
      const steps = await append(['c0', 'c1', 'c2'], 30);
      const locker = new Client({ connectionString: db.url });
      await locker.connect();
      try {
        // Holds the claim at its first statement on the table, so that it is in flight when its backend ends.
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE ${OUTBOX} IN ACCESS EXCLUSIVE MODE`);
        relayOn(target, bus, 10, { log, pollIntervalMs: 100 });
        await waitFor(
          'the claim to wait for the lock',
          async () => (await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'relay-spec-claim' AND wait_event_type = 'Lock'`)).rowCount === 1,
          { timeoutMs: 30_000 },
        );
        expect(await terminateBackends('relay-spec-claim')).toBeGreaterThanOrEqual(1);
        await waitFor('the failed claim to be reported', () => log.some((l) => l.includes('outbox relay could not publish')), { timeoutMs: 30_000 });
      } finally {
        await locker.query('ROLLBACK');
        await locker.end();
      }
      await waitFor('the relay to publish everything', async () => (await remaining()) === 0, { timeoutMs: 60_000, intervalMs: 100 });
      expect(labels(bus)).toEqual(steps.map(label));
    }, 90_000);

    it('while it is idle in the pool: the next batch takes a live connection', async () => {
      const target = await open(5, 'relay-spec-idle');
      extra.push(target);
      const bus = new RecordingBus();
      const relay = relayOn(target, bus, 10, { pollIntervalMs: 100 });
      const first = await append(['i0'], 3);
      relay.wake();
      await waitFor('the first events', () => bus.published.length === first.length);
      expect(await terminateBackends('relay-spec-idle')).toBeGreaterThanOrEqual(1);
      const second = await append(['i1'], 3);
      relay.wake();
      await waitFor('the relay to publish the next events', async () => (await remaining()) === 0, { timeoutMs: 60_000, intervalMs: 100 });
      expect(labels(bus)).toEqual([...first, ...second].map(label));
    });
  });
});
