import { z } from 'zod';
import { EventCatalog } from '@dsar/contracts';
import type { UnitOfWork } from '@dsar/platform/persistence';
import type { BusMessage, InboundMessage } from './bus.port';
import { BusServer } from './bus-server';
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
