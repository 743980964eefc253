import type { Kafka, Producer } from 'kafkajs';
import { KafkaBus } from './kafka-bus';

/** A producer that records its sends and fails the ones it is told to. */
function fakeProducer(failing: boolean): Producer & { sends: number; disconnected: boolean } {
  const producer = {
    sends: 0,
    disconnected: false,
    connect: async () => undefined,
    disconnect: async () => void (producer.disconnected = true),
    sendBatch: async () => {
      producer.sends++;
      if (failing) throw new Error('The broker received an out of order sequence number');
      return [];
    },
  };
  return producer as unknown as Producer & { sends: number; disconnected: boolean };
}

describe('KafkaBus publishing', () => {
  it('starts a new producer after a send that failed: the broker may refuse the old one for good', async () => {
    const bus = new KafkaBus({ clientId: 'test', brokers: ['127.0.0.1:1'] });
    const producers = [fakeProducer(true), fakeProducer(false)];
    const made: Producer[] = [];
    (bus as unknown as { kafka: Pick<Kafka, 'producer'> }).kafka = { producer: () => (made.push(producers[made.length]), producers[made.length - 1]) };
    const message = { topic: 'dsar.request.v1', key: 'r1', value: '{}', headers: {} };

    await expect(bus.publish([message])).rejects.toThrow(/out of order sequence number/);
    expect(producers[0].disconnected).toBe(true);
    await bus.publish([message]);
    await bus.publish([message]);
    expect(made).toHaveLength(2);
    expect([producers[0].sends, producers[1].sends]).toEqual([1, 2]);
  });
});
