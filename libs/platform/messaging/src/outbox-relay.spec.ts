import type { DataSource } from 'typeorm';
import { currentRequestContext, InternalAuthKey, runInRequestContext } from '@dsar/platform/http';
import type { BusMessage, BusPort } from './bus.port';
import { OutboxRelay } from './outbox-relay';

const KEY = InternalAuthKey.from('outbox-relay-spec-key-0123456789abcdef');

/** An outbox of one pending row at a time, as `relayUnlocked` reads it. */
function outboxOf(pending: object[][]): DataSource {
  const query = async (sql: string) => (sql.trim().startsWith('SELECT') ? (pending.shift() ?? []) : []);
  return { query, manager: { query } } as unknown as DataSource;
}

async function until(what: string, condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the outbox relay', () => {
  it("publishes what a request's commit woke it for outside that request's context (no id, no caller carried to the consumers)", async () => {
    const pending: object[][] = [];
    const contexts: unknown[] = [];
    const bus = {
      driver: 'memory',
      publish: async (messages: BusMessage[]) => {
        contexts.push(currentRequestContext() ?? null);
        expect(messages).toHaveLength(1);
      },
    } as unknown as BusPort;
    const relay = new OutboxRelay(outboxOf(pending), bus, { service: 'relay-spec', schema: 'relay_spec', batchSize: 10, pollIntervalMs: 60_000, serializedSession: true, log: () => undefined });
    relay.start();
    try {
      pending.push([{ id: '1', topic: 't', partition_key: 'k', envelope: '{}', headers: {} }]);
      runInRequestContext({ requestId: 'req-1', identity: { key: KEY, principal: { id: 'key:alice', tenantId: 'acme', roles: ['admin'] } } }, () => relay.wake());
      await until('the woken relay to publish', () => contexts.length === 1);
      expect(contexts).toEqual([null]);
    } finally {
      await relay.stop();
    }
  });
});
