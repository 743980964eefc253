import { z } from 'zod';
import { EventCatalog } from '@dsar/contracts';
import type { UnitOfWork } from '@dsar/platform/persistence';
import type { BusMessage, InboundMessage } from './bus.port';
import { BusServer, EVENTS_TOGETHER } from './bus-server';
import { buildEvent, toBusMessage } from './envelope';
import { MemoryBus } from './memory-bus';

const TYPE = 'dsar.test.probed.v1';
const catalog = new EventCatalog([{ type: TYPE, topic: 'dsar.test.v1', schema: z.object({ n: z.number() }), producer: 'test', description: 'a test event' }]);
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** A unit of work whose first `failures` transactions fail with `error`, then run the work with a stub manager. */
function flakyUow(failures: number, error: () => Error): UnitOfWork & { runs: number } {
  const uow = {
    runs: 0,
    async run<T>(work: (tx: unknown) => Promise<T>): Promise<T> {
      uow.runs++;
      if (uow.runs <= failures) throw error();
      return work({ query: async () => [{ event_id: 'x' }] });
    },
  };
  return uow as unknown as UnitOfWork & { runs: number };
}

async function deliver(uow: UnitOfWork, handled: number[]): Promise<{ dlq: BusMessage[] }> {
  const bus = new MemoryBus();
  const dlq: BusMessage[] = [];
  await bus.subscribe('dlq-watch', ['dsar.test.v1.dlq'], async (m: InboundMessage) => void dlq.push(m));
  const server = new BusServer(bus, catalog, uow, { service: 'test', groupId: 'test', schema: 'test', maxAttempts: 3, retryBackoffMs: 1, log: () => undefined });
  server.addHandler(TYPE, async (event: { data: { n: number } }) => void handled.push(event.data.n), true);
  await new Promise<void>((resolve, reject) => server.listen((e) => (e ? reject(e) : resolve())));
  await bus.publish([toBusMessage('dsar.test.v1', buildEvent(catalog, '/test', { type: TYPE, subject: 'r1', tenantId: 't', data: { n: 7 } }))]);
  await server.close();
  return { dlq };
}

describe('BusServer retries', () => {
  it('a database outage spends no attempt: the event waits and is handled once, never dead-lettered', async () => {
    const uow = flakyUow(8, refused);
    const handled: number[] = [];
    const { dlq } = await deliver(uow, handled);
    expect(uow.runs).toBe(9);
    expect(handled).toEqual([7]);
    expect(dlq).toEqual([]);
  });

  it('a failing handler goes to the dead-letter topic after its attempts', async () => {
    const uow = flakyUow(100, () => new TypeError('a bug'));
    const handled: number[] = [];
    const { dlq } = await deliver(uow, handled);
    expect(uow.runs).toBe(3);
    expect(handled).toEqual([]);
    expect(dlq).toHaveLength(1);
  });
});

/**
 * A unit of work over an in-memory inbox with transactions: a run sees the inbox as committed and keeps its own rows
 * only when its work resolves, as PostgreSQL would.
 */
function inboxUow(): UnitOfWork & { runs: number; inbox: Set<string> } {
  const uow = {
    runs: 0,
    inbox: new Set<string>(),
    async run<T>(work: (tx: unknown) => Promise<T>): Promise<T> {
      uow.runs++;
      const rows = new Set(uow.inbox);
      const result = await work({
        query: async (sql: string, params: unknown[]) => {
          // The one-event form (consumer, event_id, event_type) and the batch form (consumer, ids[], types[]).
          const ids = Array.isArray(params[1]) ? (params[1] as string[]) : [params[1] as string];
          const inserted = ids.filter((id) => !rows.has(id) && rows.add(id));
          expect(sql).toMatch(/ON CONFLICT DO NOTHING RETURNING event_id/);
          return inserted.map((event_id) => ({ event_id }));
        },
      });
      uow.inbox = rows;
      return result;
    },
  };
  return uow as unknown as UnitOfWork & { runs: number; inbox: Set<string> };
}

const probed = (n: number, id?: string): BusMessage => toBusMessage('dsar.test.v1', buildEvent(catalog, '/test', { type: TYPE, subject: `r${n}`, tenantId: 't', data: { n }, ...(id ? { id } : {}) }));

/** Publishes the messages in one go (one batch for the server) and returns what was handled and dead-lettered. */
async function deliverBatch(uow: UnitOfWork, messages: BusMessage[], handle: (n: number) => void): Promise<{ dlq: BusMessage[] }> {
  const bus = new MemoryBus();
  const dlq: BusMessage[] = [];
  await bus.subscribe('dlq-watch', ['dsar.test.v1.dlq'], async (m: InboundMessage) => void dlq.push(m));
  const server = new BusServer(bus, catalog, uow, { service: 'test', groupId: 'test', schema: 'test', maxAttempts: 3, retryBackoffMs: 1, log: () => undefined });
  server.addHandler(TYPE, async (event: { data: { n: number } }) => handle(event.data.n), true);
  await new Promise<void>((resolve, reject) => server.listen((e) => (e ? reject(e) : resolve())));
  await bus.publish(messages);
  await server.close();
  return { dlq };
}

describe('BusServer batches', () => {
  it('handles the events of a batch in one transaction, in their order', async () => {
    const uow = inboxUow();
    const handled: number[] = [];
    const { dlq } = await deliverBatch(
      uow,
      [1, 2, 3, 4].map((n) => probed(n)),
      (n) => handled.push(n),
    );
    expect(handled).toEqual([1, 2, 3, 4]);
    expect(uow.runs).toBe(1);
    expect(uow.inbox.size).toBe(4);
    expect(dlq).toEqual([]);
  });

  it('passes over a message whose ce_type header names a type it does not handle, without decoding it', async () => {
    const uow = inboxUow();
    const handled: number[] = [];
    const other: BusMessage = { topic: 'dsar.test.v1', key: 'r9', value: 'not even JSON', headers: { ce_id: 'x', ce_type: 'dsar.test.other.v1' } };
    const { dlq } = await deliverBatch(uow, [probed(1), other, probed(2)], (n) => handled.push(n));
    expect(handled).toEqual([1, 2]);
    expect(dlq).toEqual([]);
  });

  it('still decodes a message without a ce_type header, and dead-letters it when it is no event', async () => {
    const uow = inboxUow();
    const handled: number[] = [];
    const bare: BusMessage = { topic: 'dsar.test.v1', key: 'r9', value: 'not even JSON', headers: {} };
    const { dlq } = await deliverBatch(uow, [probed(1), bare, probed(2)], (n) => handled.push(n));
    expect(handled).toEqual([1, 2]);
    expect(dlq.map((m) => m.headers['dlq-reason'])).toEqual(['invalid_envelope']);
  });

  it('takes a failing batch again event by event: the poison event goes to the DLQ alone, the others have their effect once', async () => {
    const uow = inboxUow();
    const handled: number[] = [];
    const { dlq } = await deliverBatch(
      uow,
      [1, 2, 3].map((n) => probed(n)),
      (n) => {
        if (n === 2) throw new TypeError('a bug');
        handled.push(n);
      },
    );
    // The batch's transaction saw 1 before 2 failed; it was rolled back, so 1 and 3 are kept from their own transactions.
    expect(handled).toEqual([1, 1, 3]);
    expect(dlq.map((m) => JSON.parse(m.value).data.n)).toEqual([2]);
    expect([...uow.inbox].length).toBe(2);
    expect(uow.runs).toBe(1 + 1 + 3 + 1);
  });

  it('has the effect of an event once when it is in the batch twice or was handled before', async () => {
    const uow = inboxUow();
    const handled: number[] = [];
    const first = probed(1, '00000000-0000-4000-8000-000000000001');
    await deliverBatch(uow, [first], (n) => handled.push(n));
    const again = probed(2, '00000000-0000-4000-8000-000000000002');
    await deliverBatch(uow, [first, again, again, probed(3)], (n) => handled.push(n));
    expect(handled).toEqual([1, 2, 3]);
    expect(uow.inbox.size).toBe(3);
  });
});

describe('BusServer, a handler that takes events together (EVENTS_TOGETHER)', () => {
  const OTHER = 'dsar.test.other.v1';
  const two = new EventCatalog([
    { type: TYPE, topic: 'dsar.test.v1', schema: z.object({ n: z.number() }), producer: 'test', description: 'a test event' },
    { type: OTHER, topic: 'dsar.test.v1', schema: z.object({ n: z.number() }), producer: 'test', description: 'another test event' },
  ]);
  const message = (type: string, n: number): BusMessage => toBusMessage('dsar.test.v1', buildEvent(two, '/test', { type, subject: `r${n}`, tenantId: 't', data: { n } }));

  /** Delivers the messages as one batch; each call of the together handler is recorded as the list of its n. */
  async function run(uow: UnitOfWork, messages: BusMessage[], failOn?: number): Promise<{ calls: (number[] | number)[]; dlq: BusMessage[] }> {
    const bus = new MemoryBus();
    const dlq: BusMessage[] = [];
    const calls: (number[] | number)[] = [];
    await bus.subscribe('dlq-watch', ['dsar.test.v1.dlq'], async (m: InboundMessage) => void dlq.push(m));
    const server = new BusServer(bus, two, uow, { service: 'test', groupId: 'test', schema: 'test', maxAttempts: 1, retryBackoffMs: 1, log: () => undefined });
    server.addHandler(
      TYPE,
      async (events: { data: { n: number } }[]) => {
        const ns = events.map((e) => e.data.n);
        calls.push(ns);
        if (failOn !== undefined && ns.includes(failOn)) throw new TypeError('a bug');
      },
      true,
      EVENTS_TOGETHER,
    );
    server.addHandler(OTHER, async (event: { data: { n: number } }) => void calls.push(event.data.n), true);
    await new Promise<void>((resolve, reject) => server.listen((e) => (e ? reject(e) : resolve())));
    await bus.publish(messages);
    await server.close();
    return { calls, dlq };
  }

  it('gets each run of its consecutive events at once, in order, between the calls of the other handlers', async () => {
    const uow = inboxUow();
    const { calls, dlq } = await run(uow, [message(TYPE, 1), message(TYPE, 2), message(OTHER, 3), message(TYPE, 4), message(TYPE, 5)]);
    expect(calls).toEqual([[1, 2], 3, [4, 5]]);
    expect(uow.runs).toBe(1);
    expect(dlq).toEqual([]);
  });

  it('runs beside a handler of single events of the same type: each gets what it takes, each in order', async () => {
    const bus = new MemoryBus();
    const seen: (number[] | number)[] = [];
    const uow = inboxUow();
    const server = new BusServer(bus, two, uow, { service: 'test', groupId: 'test', schema: 'test', maxAttempts: 1, retryBackoffMs: 1, log: () => undefined });
    server.addHandler(TYPE, async (event: { data: { n: number } }) => void seen.push(event.data.n), true);
    server.addHandler(TYPE, async (events: { data: { n: number } }[]) => void seen.push(events.map((e) => e.data.n)), true, EVENTS_TOGETHER);
    expect(() => server.addHandler(TYPE, async () => undefined, true, EVENTS_TOGETHER)).toThrow(/two handlers that take events together/);
    await new Promise<void>((resolve, reject) => server.listen((e) => (e ? reject(e) : resolve())));
    await bus.publish([message(TYPE, 1), message(TYPE, 2), message(OTHER, 3)]);
    await server.close();
    expect(seen).toEqual([1, 2, [1, 2]]);
    expect(server.subscribedTopics()).toEqual(['dsar.test.v1']);
  });

  it('gets one event at a time when the batch is taken again event by event, and only the poison event goes to the DLQ', async () => {
    const uow = inboxUow();
    const { calls, dlq } = await run(uow, [message(TYPE, 1), message(TYPE, 2), message(TYPE, 3)], 2);
    expect(calls).toEqual([[1, 2, 3], [1], [2], [3]]);
    expect(dlq.map((m) => JSON.parse(m.value).data.n)).toEqual([2]);
    expect(uow.inbox.size).toBe(2);
  });
});
