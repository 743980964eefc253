import { Kafka, logLevel, type Message, type TopicMessages } from 'kafkajs';
import { messagingMigrations, OutboxRelay } from '@dsar/platform/messaging';
import { KafkaBus } from '@dsar/platform/messaging/kafka';
import { dataSourceOptions, openDataSource, schemaNameFor } from '@dsar/platform/persistence';
import { createTestTopics, kafkaBrokers } from '@dsar/platform/testing';
import { createBody, createRequests } from '../harness/api';
import { atLeastFloor, figure } from '../harness/figures';
import { dropTopics } from '../harness/system';
import type { Benchmark } from '../harness/types';
import { created, quiesce, wallMs } from '../harness/util';

/**
 * relay: events per second from one service's outbox to Kafka — the product's OutboxRelay (claim a batch with
 * FOR UPDATE SKIP LOCKED, check the keys and delete the sendable rows in one statement, publish through KafkaBus,
 * commit; the next batch claimed while one is published) draining a backlog — against kafkajs producing the same
 * messages directly, with the same producer settings and batch size.
 */

const SCHEMA = 'bench_relay';
const OUTBOX = `"${SCHEMA}".outbox`;
/** The relay's batch (OUTBOX_BATCH_SIZE's default) and poll interval (OUTBOX_POLL_MS's default). */
const BATCH_SIZE = 100;
const POLL_MS = 1000;

export const relay: Benchmark = {
  name: 'relay',
  summary: "events/s from one service's outbox to Kafka through OutboxRelay, against kafkajs producing the same messages",
  inDefault: true,
  needsInfra: true,
  async run(ctx) {
    const { settings } = ctx;
    const n = settings.relayEvents;
    const sys = await ctx.distributed();
    const pool = sys.pool();

    // Real events: the outbox rows lifecycle-clock writes for a few creates, as templates. Its relay deletes them once
    // they are published, so a trigger copies them as they are written, for the time of the creates.
    const source = `"${schemaNameFor('lifecycle-clock')}".outbox`;
    const copies = `"${SCHEMA}".event_templates`;
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${SCHEMA}"`);
    await pool.query(`CREATE TABLE ${copies} (LIKE ${source})`);
    await pool.query(`CREATE FUNCTION "${SCHEMA}".copy_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ${copies} SELECT NEW.*; RETURN NEW; END $$`);
    await pool.query(`CREATE TRIGGER bench_relay_copy AFTER INSERT ON ${source} FOR EACH ROW EXECUTE FUNCTION "${SCHEMA}".copy_event()`);
    try {
      await createRequests(sys.gatewayUrl, sys.keys['bench-relay'], createBody(new Date(wallMs() - 60_000)), 10, 4);
    } finally {
      await pool.query(`DROP TRIGGER bench_relay_copy ON ${source}`);
      await pool.query(`DROP FUNCTION "${SCHEMA}".copy_event()`);
    }
    const { rows: templates } = await pool.query<{ event_type: string }>(`SELECT event_type, topic, tenant_id, envelope, headers FROM ${copies} WHERE tenant_id = 'bench-relay' ORDER BY id`);
    if (templates.length === 0) throw new Error('lifecycle-clock wrote no outbox rows for the creates');

    // Its own topics, which nothing consumes, so the published events cost nothing downstream.
    const prefix = await createTestTopics();
    created.topicPrefixes.push(prefix);
    ctx.defer(() => dropTopics(prefix));
    const ds = await openDataSource(
      await dataSourceOptions({ driver: 'postgres', url: sys.db.url, dataDir: '', poolSize: 10, schema: SCHEMA, entities: [], migrations: messagingMigrations, applicationName: 'dsar-bench-relay' }),
      'run',
    );
    const warnings: string[] = [];
    const bus = new KafkaBus({ brokers: kafkaBrokers().split(','), clientId: 'dsar-bench-relay', topicPrefix: prefix, service: 'lifecycle-clock' });
    const outboxRelay = new OutboxRelay(ds, bus, {
      service: 'lifecycle-clock',
      schema: SCHEMA,
      batchSize: BATCH_SIZE,
      pollIntervalMs: POLL_MS,
      serializedSession: false,
      log: (level, message, extra) => warnings.push(`${level}: ${message} ${JSON.stringify(extra ?? {})}`),
    });
    // The floor's producer: kafkajs as KafkaBus configures it (idempotent, one request in flight, acks from all replicas).
    const kafka = new Kafka({ clientId: 'dsar-bench-floor', brokers: kafkaBrokers().split(','), connectionTimeout: 3000, requestTimeout: 10000, logLevel: logLevel.NOTHING });
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    await producer.connect();

    const { rows: idRow } = await pool.query<{ id: string }>(`SELECT COALESCE(max(id), 0)::text AS id FROM ${OUTBOX}`);
    let lastId = idRow[0].id;
    /**
     * `count` rows cycling over the templates, each with its own event id and request (key), unpublished (for the
     * relay) or marked published (for the floor, so that the running relay leaves them, as it leaves the rows an
     * earlier version of it marked).
     */
    const fill = async (count: number, published: boolean): Promise<void> => {
      await pool.query(
        `WITH t AS (SELECT row_number() OVER () - 1 AS n, * FROM jsonb_to_recordset($2::jsonb) AS x(event_type text, topic text, tenant_id text, envelope jsonb, headers jsonb)),
              g AS (SELECT i, gen_random_uuid() AS event_id, gen_random_uuid()::text AS request_id FROM generate_series(0, $1::int - 1) AS i OFFSET 0)
         INSERT INTO ${OUTBOX} (event_id, event_type, topic, partition_key, tenant_id, envelope, headers, processed_at)
         SELECT g.event_id, t.event_type, t.topic, g.request_id, t.tenant_id,
                jsonb_set(jsonb_set(t.envelope, '{id}', to_jsonb(g.event_id::text)), '{subject}', to_jsonb(g.request_id)),
                (SELECT jsonb_object_agg(k, CASE WHEN v = t.envelope->'id' THEN to_jsonb(g.event_id::text) ELSE v END) FROM jsonb_each(t.headers) AS h(k, v)),
                CASE WHEN $4 THEN now() END
           FROM g JOIN t ON t.n = g.i % $3
          ORDER BY g.i`,
        [count, JSON.stringify(templates), templates.length, published],
      );
    };
    /** The rows added since the last call, as the messages the relay makes of them. */
    const messagesSince = async (): Promise<TopicMessages[][]> => {
      const { rows } = await pool.query<{ id: string; topic: string; partition_key: string; envelope: unknown; headers: Record<string, string> }>(
        `SELECT id::text, topic, partition_key, envelope, headers FROM ${OUTBOX} WHERE id > $1 ORDER BY id`,
        [lastId],
      );
      lastId = rows.length ? rows[rows.length - 1].id : lastId;
      // The messages exactly as the relay makes them (KafkaBus.publish: one sendBatch per batch, grouped by topic).
      const batches: TopicMessages[][] = [];
      for (let i = 0; i < rows.length; i += BATCH_SIZE) {
        const byTopic = new Map<string, Message[]>();
        for (const r of rows.slice(i, i + BATCH_SIZE)) {
          const messages = byTopic.get(r.topic) ?? [];
          messages.push({ key: r.partition_key, value: JSON.stringify(r.envelope), headers: r.headers });
          byTopic.set(r.topic, messages);
        }
        batches.push([...byTopic].map(([topic, messages]) => ({ topic: prefix + topic, messages })));
      }
      return batches;
    };
    const pending = async (): Promise<number> => (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${OUTBOX} WHERE processed_at IS NULL`)).rows[0].n;

    const relayRates: number[] = [];
    const floorRates: number[] = [];
    try {
      // The relay as a service runs it: started (it polls every POLL_MS) and woken after each commit.
      outboxRelay.start();
      /** Wakes the relay, as the commit of the rows would, and waits until the outbox is empty. */
      const drained = async (): Promise<void> => {
        const deadline = performance.now() + settings.drainTimeoutS * 1000;
        outboxRelay.wake();
        for (;;) {
          await outboxRelay.drainOnce();
          const left = await pending();
          if (left === 0) return;
          if (performance.now() > deadline) throw new Error(`the relay left ${left} events unpublished after ${settings.drainTimeoutS} s: ${warnings.slice(-3).join('; ')}`);
        }
      };
      // Warm-up: producers connected, statements prepared.
      await fill(BATCH_SIZE, false);
      await drained();
      await messagesSince();
      await fill(BATCH_SIZE, true);
      for (const b of await messagesSince()) await producer.sendBatch({ acks: -1, topicMessages: b });

      for (let rep = 0; rep < ctx.repeat; rep++) {
        const runRelay = async (): Promise<void> => {
          await quiesce(sys.pids, settings.quiesceTimeoutS * 1000);
          await fill(n, false);
          // From the commit of the rows (the relay's next poll could have started on them already).
          const t0 = performance.now();
          await drained();
          relayRates.push(n / ((performance.now() - t0) / 1000));
          await messagesSince();
        };
        const runFloor = async (): Promise<void> => {
          await fill(n, true);
          const batches = await messagesSince();
          await quiesce(sys.pids, settings.quiesceTimeoutS * 1000);
          const t0 = performance.now();
          for (const b of batches) await producer.sendBatch({ acks: -1, topicMessages: b });
          floorRates.push(n / ((performance.now() - t0) / 1000));
        };
        if (rep % 2 === 0) {
          await runFloor();
          await runRelay();
        } else {
          await runRelay();
          await runFloor();
        }
        ctx.log(`    rep ${rep + 1}: relay ${relayRates[rep].toFixed(0)} events/s, floor ${floorRates[rep].toFixed(0)} events/s`);
      }
    } finally {
      await outboxRelay.stop().catch(() => undefined);
      await producer.disconnect().catch(() => undefined);
      await bus.close().catch(() => undefined);
      await ds.destroy().catch(() => undefined);
    }

    return {
      title: "relay — events per second from one service's outbox to Kafka",
      method:
        `${n.toLocaleString('en-US')} unpublished rows in an outbox (copies of the events lifecycle-clock wrote for real creates, each with its own event id and request), ` +
        `drained by the product's OutboxRelay (batch ${BATCH_SIZE}, the default; claim with FOR UPDATE SKIP LOCKED, key check and delete in one statement, KafkaBus publish, commit; ` +
        'the next batch claimed while one is published) on its own PostgreSQL pool, ' +
        'to topics nothing consumes, timed from the commit of the rows (the relay woken as a commit wakes it) to an empty outbox; it runs in the harness process, as lifecycle-clock would run it. ' +
        `Floor: kafkajs producing the same messages (key, value, headers) directly, in the same batches of ${BATCH_SIZE}, one after the other, with KafkaBus's producer settings (idempotent, one request in flight, acks from all replicas).`,
      figures: [figure('events', 'relay: events per second', 'events/s', relayRates, { floor: { label: 'kafkajs', samples: floorRates }, target: atLeastFloor(0.5) })],
      notes: warnings.length ? [`The relay logged ${warnings.length} warning(s), the first: ${warnings[0]}`] : [],
      raw: { events: n, relayRates, floorRates, templates: templates.map((t) => t.event_type) },
    };
  },
};
