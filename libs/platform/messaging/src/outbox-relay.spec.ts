import { EventEmitter } from 'node:events';
import type { DataSource } from 'typeorm';
import { currentRequestContext, InternalAuthKey, runInRequestContext } from '@dsar/platform/http';
import type { BusMessage, BusPort } from './bus.port';
import { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';

const KEY = InternalAuthKey.from('outbox-relay-spec-key-0123456789abcdef');

/** An outbox of one pending row at a time, as `relayUnlocked` reads it. */
function outboxOf(pending: object[][]): DataSource {
  const query = async (sql: string) => (sql.trim().startsWith('SELECT') ? (pending.shift() ?? []) : []);
  return { query } as unknown as DataSource;
}

/** A pooled PostgreSQL connection as the relay uses it on the PostgreSQL path: statements in, and `error` events. */
class FakeConnection extends EventEmitter {
  readonly statements: string[] = [];
  constructor(private readonly claims: object[][]) {
    super();
  }
  async query(sql: string): Promise<unknown> {
    if (sql.startsWith('BEGIN')) {
      this.statements.push('claim');
      const rows = this.claims.shift() ?? [];
      return [{ rows: [] }, { rows: rows.map((r) => ({ claimed: rows.length, ...r })) }];
    }
    this.statements.push(sql);
    return { rows: [] };
  }
}

/** A DataSource whose pool hands out fake connections, each claim answering with the next of `claims`; it records what each connection was released with. */
function poolOf(claims: object[][]): { dataSource: DataSource; connections: FakeConnection[]; released: (string | undefined)[] } {
  const connections: FakeConnection[] = [];
  const released: (string | undefined)[] = [];
  const obtainMasterConnection = async () => {
    const connection = new FakeConnection(claims);
    connections.push(connection);
    return [connection, (discard?: Error) => void released.push(discard?.message)];
  };
  const query = async () => [];
  return { dataSource: { driver: { obtainMasterConnection }, query } as unknown as DataSource, connections, released };
}

const row = (id: string) => ({ id, topic: 't', partition_key: `k${id}`, envelope: `{"id":"${id}"}`, headers: {} });
const options = (overrides: Partial<OutboxRelayOptions> = {}): OutboxRelayOptions => ({
  service: 'relay-spec',
  schema: 'relay_spec',
  batchSize: 10,
  pollIntervalMs: 60_000,
  serializedSession: false,
  log: () => undefined,
  ...overrides,
});

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

  it('survives a connection that the server closes while its batch is being published: the connection is discarded, nothing is committed on it, and the next poll claims the batch again', async () => {
    const { dataSource, connections, released } = poolOf([[row('1')], [row('1')]]);
    const published: string[] = [];
    const warnings: string[] = [];
    const bus = {
      driver: 'kafka',
      publish: async (messages: BusMessage[]) => {
        if (published.length === 0) {
          // As pg reports it: an `error` event from the socket, between two statements.
          await new Promise<void>((resolve) =>
            setImmediate(() => {
              connections[0].emit('error', new Error('terminating connection due to administrator command'));
              resolve();
            }),
          );
        }
        published.push(...messages.map((m) => m.value));
      },
    } as unknown as BusPort;
    const relay = new OutboxRelay(dataSource, bus, options({ pollIntervalMs: 10, log: (_level, message, extra) => warnings.push(`${message} ${extra?.error}`) }));
    relay.start();
    try {
      await until('the batch to be published again and committed', () => released.length === 2);
    } finally {
      await relay.stop();
    }
    expect(published).toEqual(['{"id":"1"}', '{"id":"1"}']);
    expect(connections.map((c) => c.statements)).toEqual([['claim'], ['claim', 'COMMIT']]);
    expect(released).toEqual(['terminating connection due to administrator command', undefined]);
    expect(warnings).toEqual(['outbox relay could not publish; events stay in the outbox terminating connection due to administrator command']);
  });

  it('claims the next batch while a full one is being published, and rolls back the batch that failed and the one claimed ahead of it', async () => {
    const full = (from: number) => Array.from({ length: 10 }, (_, i) => row(String(from + i)));
    const { dataSource, connections, released } = poolOf([full(1), full(11), [row('21')]]);
    const claimsDuringPublish: number[] = [];
    let calls = 0;
    const bus = {
      driver: 'kafka',
      publish: async () => {
        claimsDuringPublish.push(connections.length);
        if (++calls === 2) throw new Error('the broker is away');
      },
    } as unknown as BusPort;
    const relay = new OutboxRelay(dataSource, bus, options());
    relay.start();
    try {
      await relay.drainOnce();
    } finally {
      await relay.stop();
    }
    // The first publish runs with the second batch claimed; the second fails while the third is claimed.
    expect(claimsDuringPublish).toEqual([2, 3]);
    expect(connections.map((c) => c.statements)).toEqual([
      ['claim', 'COMMIT'],
      ['claim', 'ROLLBACK'],
      ['claim', 'ROLLBACK'],
    ]);
    expect(released).toEqual([undefined, undefined, undefined]);
  });
});
