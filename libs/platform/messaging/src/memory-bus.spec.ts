import type { BusMessage, InboundMessage } from './bus.port';
import { MemoryBus } from './memory-bus';

/** Each test builds its own bus: MemoryBus.instance() is shared by the whole process. */
const TOPIC = 'dsar.request.v1';
const DLQ = 'dsar.request.v1.dlq';

const message = (value: string, topic = TOPIC, key = 'req-1'): BusMessage => ({ topic, key, value, headers: { ce_id: value } });
const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('MemoryBus delivery order', () => {
  it('delivers every message to every subscribed group, in publish order', async () => {
    const bus = new MemoryBus();
    const seen: Record<string, string[]> = { a: [], b: [], other: [] };
    await bus.subscribe('group-a', [TOPIC], async (m) => void seen.a.push(m.value));
    await bus.subscribe('group-b', [TOPIC, 'dsar.intake.v1'], async (m) => {
      await nextMacrotask(); // a slower consumer must not let a later publish overtake
      seen.b.push(m.value);
    });
    await bus.subscribe('group-other', ['dsar.policy.v1'], async (m) => void seen.other.push(m.value));

    await Promise.all([bus.publish([message('1'), message('2')]), bus.publish([message('3')]), bus.publish([message('4', 'dsar.intake.v1'), message('5')])]);

    expect(seen.a).toEqual(['1', '2', '3', '5']);
    expect(seen.b).toEqual(['1', '2', '3', '4', '5']);
    expect(seen.other).toEqual([]);
  });

  it('numbers the messages of a topic with increasing offsets and keeps key and headers', async () => {
    const bus = new MemoryBus();
    const inbound: InboundMessage[] = [];
    await bus.subscribe('group-a', [TOPIC], async (m) => void inbound.push(m));
    await bus.publish([message('1'), message('2', TOPIC, 'req-2')]);
    expect(inbound.map((m) => [m.offset, m.key, m.headers['ce_id']])).toEqual([
      ['0', 'req-1', '1'],
      ['1', 'req-2', '2'],
    ]);
  });

  it('hands a batch subscriber the messages of its topics from one publish together, in parts of at most maxMessages', async () => {
    const bus = new MemoryBus();
    const batches: string[][] = [];
    await bus.subscribeBatches('group-a', [TOPIC], async (ms) => void batches.push(ms.map((m) => m.value)), { maxMessages: 2 });
    await bus.publish([message('1'), message('x', 'dsar.intake.v1'), message('2'), message('3')]);
    await bus.publish([message('4')]);
    expect(batches).toEqual([['1', '2'], ['3'], ['4']]);
  });

  it('stops delivering to a subscription once it is closed', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    const sub = await bus.subscribe('group-a', [TOPIC], async (m) => void seen.push(m.value));
    await bus.publish([message('1')]);
    await sub.close();
    await bus.publish([message('2')]);
    expect(seen).toEqual(['1']);
  });
});

describe('MemoryBus.publish completion', () => {
  it('resolves only after every handler has finished', async () => {
    const bus = new MemoryBus();
    const log: string[] = [];
    for (const group of ['group-a', 'group-b']) {
      await bus.subscribe(group, [TOPIC], async () => {
        log.push(`${group} started`);
        await nextMacrotask();
        log.push(`${group} finished`);
      });
    }
    await bus.publish([message('1')]).then(() => log.push('published'));
    expect(log).toEqual(['group-a started', 'group-a finished', 'group-b started', 'group-b finished', 'published']);
  });

  it('rejects when a handler rejects, and keeps delivering later messages', async () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    await bus.subscribe('group-a', [TOPIC], async (m) => {
      if (m.value === 'poison') throw new Error('handler refused poison');
      seen.push(m.value);
    });
    await expect(bus.publish([message('poison')])).rejects.toThrow('handler refused poison');
    await bus.publish([message('after')]);
    expect(seen).toEqual(['after']);
  });
});

describe('MemoryBus dead letters', () => {
  it('lets a handler publish to a .dlq topic during a delivery without deadlock, and keeps the dead letter', async () => {
    const bus = new MemoryBus();
    const dlqSeen: string[] = [];
    await bus.subscribe('group-a', [TOPIC], async (m) => {
      await bus.publish([{ ...message(m.value, DLQ, m.key), headers: { ...m.headers, 'dlq-reason': 'handler_failed' } }]);
    });
    await bus.subscribe('group-dlq', [DLQ], async (m) => void dlqSeen.push(m.value));

    await bus.publish([message('doomed')]);

    expect(dlqSeen).toEqual(['doomed']);
    expect(bus.deadLetters).toHaveLength(1);
    expect(bus.deadLetters[0]).toMatchObject({ topic: DLQ, key: 'req-1', value: 'doomed', headers: { 'dlq-reason': 'handler_failed' } });
  });

  it('keeps at most deadLetterCapacity dead letters, dropping the oldest', async () => {
    const bus = new MemoryBus();
    const total = MemoryBus.deadLetterCapacity + 5;
    await bus.publish(Array.from({ length: total }, (_, i) => message(String(i), DLQ)));
    expect(bus.deadLetters).toHaveLength(MemoryBus.deadLetterCapacity);
    expect(bus.deadLetters[0].value).toBe('5');
    expect(bus.deadLetters.at(-1)!.value).toBe(String(total - 1));
  });

  it('does not count ordinary messages as dead letters', async () => {
    const bus = new MemoryBus();
    await bus.publish([message('1')]);
    expect(bus.deadLetters).toEqual([]);
  });
});

describe('MemoryBus consumer groups', () => {
  it('refuses a second subscription of the same group id', async () => {
    const bus = new MemoryBus();
    await bus.subscribe('group-a', [TOPIC], async () => undefined);
    await expect(bus.subscribe('group-a', ['dsar.intake.v1'], async () => undefined)).rejects.toThrow('Consumer group group-a is already subscribed on the in-memory bus');
  });

  it('accepts the group again after its subscription closed', async () => {
    const bus = new MemoryBus();
    const first = await bus.subscribe('group-a', [TOPIC], async () => undefined);
    await first.close();
    await expect(bus.subscribe('group-a', [TOPIC], async () => undefined)).resolves.toBeDefined();
  });

  it('is one bus per process through instance()', () => {
    expect(MemoryBus.instance()).toBe(MemoryBus.instance());
    expect(MemoryBus.instance().driver).toBe('memory');
  });
});
