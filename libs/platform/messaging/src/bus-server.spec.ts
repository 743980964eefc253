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
