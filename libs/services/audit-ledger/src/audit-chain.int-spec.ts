import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AuditEventTypes, type CloudEventEnvelope, LifecycleEventTypes, RequestEventTypes } from '@dsar/contracts';
import { type HostedService, hostService } from '@dsar/platform/host';
import { UnitOfWork } from '@dsar/platform/persistence';
import { createTestDatabase, testHostConfig } from '@dsar/platform/testing';
import { ChainVerification } from './application/chain-verification';
import { ChainExport } from './application/chain-export';
import { CheckpointPublisher } from './application/checkpoint-publisher';
import { Ledger } from './application/ledger';
import { checkpointSettingsFrom, newSigningKeyPem } from './audit-settings';
import { checkpointSignatureValid, leafHash, merkleRoot } from '@dsar/platform/audit-chain';
import { auditLedgerServiceWith } from './index';
import { LedgerEvents1763700000200 } from './infrastructure/migrations/1763700000200-ledger-events';
import { AuditChain1763700000210 } from './infrastructure/migrations/1763700000210-audit-chain';

/** The audit chain on a real PostgreSQL database: concurrency, idempotency, the trigger, tampering, purge, checkpoints. */
describe('audit chain on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let service: HostedService;
  let ledger: Ledger;
  let owner: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    const checkpoints = { ...checkpointSettingsFrom({ AUDIT_SIGNING_KEY: newSigningKeyPem() }), maxLeaves: 3 };
    service = await hostService(auditLedgerServiceWith(checkpoints), testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: db.url, DB_MIGRATIONS: 'run', DB_POOL_SIZE: 10 }));
    ledger = service.app.get(Ledger);
    owner = new Client({ connectionString: db.url });
    await owner.connect();
  });

  afterAll(async () => {
    await owner?.end();
    await service?.close();
    await db?.drop();
  });

  function event(requestId: string, type: string, data: Record<string, unknown> = {}, tenantId = 'tenant-a'): CloudEventEnvelope {
    return {
      specversion: '1.0',
      id: randomUUID(),
      source: '/dsar/lifecycle-clock',
      type,
      subject: requestId,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      tenantid: tenantId,
      data: { requestId, tenantId, ...data },
    };
  }

  async function chainOf(requestId: string, count: number, tenantId = 'tenant-a'): Promise<CloudEventEnvelope[]> {
    const events = Array.from({ length: count }, (_, i) => event(requestId, i === 0 ? RequestEventTypes.created : LifecycleEventTypes.acknowledged, { step: i }, tenantId));
    for (const e of events) await ledger.append(e);
    return events;
  }

  const verify = (requestId: string, body: { hash: string; sequence: number; prevHash?: string }) => service.app.get(ChainVerification).verify('tenant-a', requestId, body);

  it('gives concurrent events of one request one gap-free chain that verifies', async () => {
    const requestId = randomUUID();
    const events = Array.from({ length: 40 }, (_, i) => event(requestId, LifecycleEventTypes.acknowledged, { step: i }));
    await Promise.all(events.map((e) => ledger.append(e)));
    const entries = await ledger.eventsOf('tenant-a', requestId);
    expect(entries.map((e) => e.sequence)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(entries.map((e) => e.eventId))).toEqual(new Set(events.map((e) => e.id)));
    const head = entries[entries.length - 1];
    await expect(verify(requestId, { hash: head.hash, prevHash: head.prevHash, sequence: 40 })).resolves.toMatchObject({ verified: true, status: 'verified', mismatches: [], checkedEntries: 40 });
  });

  it('appends a redelivered event once, even when the copies arrive together', async () => {
    const requestId = randomUUID();
    const [created] = await chainOf(requestId, 1);
    const again = event(requestId, LifecycleEventTypes.acknowledged);
    const results = await Promise.all([again, again, again, created].map((e) => ledger.append(e)));
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect((await ledger.eventsOf('tenant-a', requestId)).map((e) => e.eventId)).toEqual([created.id, again.id]);
  });

  it("appends a transaction's events together (a consumer's batch): each chain locked once, every entry and head written at COMMIT", async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const [existing] = await chainOf(second, 1);
    const text = { justification: 'complexity', reason: 'Rita Example asked twice', additionalDays: 10 };
    const batch = [
      event(first, RequestEventTypes.created),
      event(second, LifecycleEventTypes.acknowledged),
      event(first, RequestEventTypes.deadlineExtended, text),
      event(second, RequestEventTypes.deadlineExtended, text),
      event(first, RequestEventTypes.deadlineExtended, text),
    ];
    const statements: string[] = [];
    const uow = service.app.get(UnitOfWork);
    const results = await uow.run(async (tx) => {
      const query = tx.query.bind(tx);
      tx.query = ((sql: string, params?: unknown[]) => (statements.push(sql), query(sql, params))) as typeof tx.query;
      const appended = [];
      for (const e of [...batch, batch[2]]) appended.push(await ledger.append(e));
      // Nothing is written before the COMMIT: the heads are where they were.
      expect(await owner.query(`SELECT count(*)::int AS n FROM audit_ledger.audit_entries WHERE request_id = ANY($1)`, [[first, second]])).toMatchObject({ rows: [{ n: 1 }] });
      return appended;
    });
    expect(results.map((r) => r.duplicate)).toEqual([false, false, false, false, false, true]);
    // The two heads locked, the stored chain asked whether it holds its event and its salt read, the writes at COMMIT.
    expect(statements.filter((sql) => /INSERT INTO \S+audit_chain_heads/.test(sql))).toHaveLength(2);
    expect(statements.filter((sql) => /FROM \S+audit_entries WHERE event_id/.test(sql))).toHaveLength(2);
    expect(statements.filter((sql) => /^WITH w1 AS \(INSERT INTO \S+audit_/.test(sql))).toHaveLength(1);

    const chainA = await ledger.eventsOf('tenant-a', first);
    const chainB = await ledger.eventsOf('tenant-a', second);
    expect(chainA.map((e) => [e.sequence, e.eventId])).toEqual([
      [1, batch[0].id],
      [2, batch[2].id],
      [3, batch[4].id],
    ]);
    expect(chainB.map((e) => [e.sequence, e.eventId])).toEqual([
      [1, existing.id],
      [2, batch[1].id],
      [3, batch[3].id],
    ]);
    // One salt per request, made once: the same text hashes alike within a request, in this transaction and after it.
    expect(chainA[1].payload.reason).toBe(chainA[2].payload.reason);
    expect(chainA[1].payload.reason).not.toBe(chainB[2].payload.reason);
    await ledger.append(event(first, RequestEventTypes.deadlineExtended, text));
    expect((await ledger.eventsOf('tenant-a', first))[3].payload.reason).toBe(chainA[1].payload.reason);
    for (const [requestId, chain] of [
      [first, chainA],
      [second, chainB],
    ] as const) {
      const head = chain[chain.length - 1];
      await expect(verify(requestId, { hash: head.hash, prevHash: head.prevHash, sequence: head.sequence })).resolves.toMatchObject({ verified: true, mismatches: [] });
    }
  });

  it("opens the chains of a batch's events together: four statements for any number of events and chains", async () => {
    const [fresh, older] = [randomUUID(), randomUUID()];
    const text = { justification: 'complexity', reason: 'Sam Example wrote again', additionalDays: 5 };
    const before = event(older, RequestEventTypes.deadlineExtended, text);
    await chainOf(older, 1);
    await ledger.append(before);
    const batch = [
      event(fresh, RequestEventTypes.created),
      event(older, LifecycleEventTypes.acknowledged),
      before,
      event(fresh, RequestEventTypes.deadlineExtended, text),
      event(older, RequestEventTypes.deadlineExtended, text),
    ];
    const statements: string[] = [];
    const results = await service.app.get(UnitOfWork).run(async (tx) => {
      const query = tx.query.bind(tx);
      tx.query = ((sql: string, params?: unknown[]) => (statements.push(sql.replace(/\s+/g, ' ').slice(0, 60)), query(sql, params))) as typeof tx.query;
      return ledger.appendAll(batch);
    });
    expect(results.map((r) => r.duplicate)).toEqual([false, false, true, false, false]);
    // The heads locked; which events the older chain holds; its salt; then every entry, salt and head in one statement.
    expect(statements).toEqual([
      expect.stringMatching(/^INSERT INTO \S+audit_chain_heads/),
      expect.stringMatching(/^SELECT event_id FROM \S+audit_entries/),
      expect.stringMatching(/^SELECT s.tenant_id/),
      expect.stringMatching(/^WITH w1 AS \(INSERT INTO /),
    ]);
    const chainOfOlder = await ledger.eventsOf('tenant-a', older);
    expect(chainOfOlder.map((e) => e.eventId)).toEqual([chainOfOlder[0].eventId, before.id, batch[1].id, batch[4].id]);
    // The salt read in the batch is the one the older chain had: the same text hashes alike.
    expect(chainOfOlder[3].payload.reason).toBe(chainOfOlder[1].payload.reason);
    expect((await ledger.eventsOf('tenant-a', fresh)).map((e) => e.eventId)).toEqual([batch[0].id, batch[3].id]);
    for (const requestId of [fresh, older]) {
      const chain = await ledger.eventsOf('tenant-a', requestId);
      const head = chain[chain.length - 1];
      await expect(verify(requestId, { hash: head.hash, prevHash: head.prevHash, sequence: head.sequence })).resolves.toMatchObject({ verified: true, mismatches: [] });
    }
  });

  it('keeps free text that may be personal data only as a salted hash, the same for the same text within a request', async () => {
    const requestId = randomUUID();
    const data = { justification: 'complexity', reason: 'Jane Roe sent 40 GB of scans', additionalDays: 60 };
    await ledger.append(event(requestId, RequestEventTypes.deadlineExtended, data));
    const [entry] = await ledger.eventsOf('tenant-a', requestId);
    expect(entry.payload.additionalDays).toBe(60);
    expect(entry.payload.justification).toBe('complexity');
    expect(entry.payload.reason).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(entry)).not.toContain('Jane Roe');
    await ledger.append(event(requestId, RequestEventTypes.deadlineExtended, { ...data, additionalDays: 30 }));
    expect((await ledger.eventsOf('tenant-a', requestId))[1].payload.reason).toBe(entry.payload.reason);

    const other = randomUUID();
    await ledger.append(event(other, RequestEventTypes.deadlineExtended, data));
    expect((await ledger.eventsOf('tenant-a', other))[0].payload.reason).not.toBe(entry.payload.reason);
  });

  it('rejects UPDATE, DELETE and TRUNCATE of chain rows in the database itself', async () => {
    const requestId = randomUUID();
    await chainOf(requestId, 2);
    await expect(owner.query(`UPDATE audit_ledger.audit_entries SET actor = 'x' WHERE request_id = $1`, [requestId])).rejects.toThrow(/append-only: UPDATE of entry 1/);
    await expect(owner.query(`DELETE FROM audit_ledger.audit_entries WHERE request_id = $1`, [requestId])).rejects.toThrow(/append-only: DELETE/);
    await expect(owner.query(`TRUNCATE audit_ledger.audit_entries`)).rejects.toThrow(/append-only: TRUNCATE/);
    expect(await ledger.eventsOf('tenant-a', requestId)).toHaveLength(2);
  });

  it('reports an entry edited in PostgreSQL behind the trigger, with its event id', async () => {
    const requestId = randomUUID();
    const events = await chainOf(requestId, 5);
    const before = await ledger.eventsOf('tenant-a', requestId);
    const head = before[4];

    // The database owner can switch the trigger off; the chain still gives the edit away.
    await owner.query('BEGIN');
    await owner.query('ALTER TABLE audit_ledger.audit_entries DISABLE TRIGGER audit_entries_append_only');
    await owner.query(`UPDATE audit_ledger.audit_entries SET payload = (payload::jsonb || '{"step": 99}')::text WHERE request_id = $1 AND sequence = 3`, [requestId]);
    await owner.query('ALTER TABLE audit_ledger.audit_entries ENABLE TRIGGER audit_entries_append_only');
    await owner.query('COMMIT');

    const result = await verify(requestId, { hash: head.hash, sequence: 5 });
    expect(result.verified).toBe(false);
    expect(result.status).toBe('tampered');
    expect(result.mismatches).toEqual([{ eventId: events[2].id, sequence: 3, kind: 'content', expectedHash: before[2].hash, actualHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) }]);
    expect(result.mismatches[0].actualHash).not.toBe(before[2].hash);
    // Verifying up to an entry before the edit still succeeds.
    await expect(verify(requestId, { hash: before[1].hash, sequence: 2 })).resolves.toMatchObject({ verified: true });
  });

  it('reports an entry deleted behind the trigger at the entry after it', async () => {
    const requestId = randomUUID();
    const events = await chainOf(requestId, 4);
    const before = await ledger.eventsOf('tenant-a', requestId);
    await owner.query('BEGIN');
    await owner.query('ALTER TABLE audit_ledger.audit_entries DISABLE TRIGGER audit_entries_append_only');
    await owner.query(`DELETE FROM audit_ledger.audit_entries WHERE request_id = $1 AND sequence = 2`, [requestId]);
    await owner.query('ALTER TABLE audit_ledger.audit_entries ENABLE TRIGGER audit_entries_append_only');
    await owner.query('COMMIT');
    for (const sequence of [2, 4]) {
      const result = await verify(requestId, { hash: before[sequence - 1].hash, sequence });
      expect(result).toMatchObject({ verified: false, status: 'tampered' });
      expect(result.mismatches).toContainEqual(expect.objectContaining({ eventId: events[2].id, sequence: 3, kind: 'sequence' }));
    }
  });

  it('tells a hash that does not match the stored chain, a sequence past its head, and a bad link apart', async () => {
    const requestId = randomUUID();
    await chainOf(requestId, 3);
    const entries = await ledger.eventsOf('tenant-a', requestId);
    const wrong = `sha256:${'0'.repeat(63)}1`;
    await expect(verify(requestId, { hash: wrong, sequence: 3 })).resolves.toEqual({
      verified: false,
      status: 'hash_mismatch',
      sequence: 3,
      checkedEntries: 3,
      mismatches: [{ eventId: entries[2].eventId, sequence: 3, kind: 'claimed_hash', expectedHash: wrong, actualHash: entries[2].hash }],
    });
    await expect(verify(requestId, { hash: entries[2].hash, prevHash: wrong, sequence: 3 })).resolves.toMatchObject({
      status: 'hash_mismatch',
      mismatches: [{ kind: 'claimed_prev_hash', expectedHash: wrong, actualHash: entries[1].hash }],
    });
    await expect(verify(requestId, { hash: entries[2].hash, sequence: 4 })).resolves.toMatchObject({ verified: false, status: 'sequence_not_found', mismatches: [] });
    await expect(verify(randomUUID(), { hash: wrong, sequence: 1 })).rejects.toMatchObject({ definition: { name: 'RESOURCE_NOT_FOUND' } });
  });

  it('purges a prefix for retention, leaving a checkpoint the rest of the chain verifies from', async () => {
    const requestId = randomUUID();
    await chainOf(requestId, 6);
    const before = await ledger.eventsOf('tenant-a', requestId);
    expect(await ledger.purgeThrough('tenant-a', requestId, 4)).toBe(4);
    expect((await ledger.eventsOf('tenant-a', requestId)).map((e) => e.sequence)).toEqual([5, 6]);
    await expect(verify(requestId, { hash: before[5].hash, sequence: 6 })).resolves.toMatchObject({ verified: true, checkedEntries: 2 });
    await expect(verify(requestId, { hash: before[1].hash, sequence: 2 })).resolves.toMatchObject({ verified: false, status: 'purged' });
    const exported = await service.app.get(ChainExport).snapshot('tenant-a', requestId, 'jsonl');
    expect(exported.purgedPrefix).toMatchObject({ throughSequence: 4, hash: before[3].hash });
    expect(exported.events[0].prevHash).toBe(before[3].hash);
    // Entries a purge checkpoint does not cover stay undeletable.
    await expect(owner.query(`DELETE FROM audit_ledger.audit_entries WHERE request_id = $1 AND sequence = 5`, [requestId])).rejects.toThrow(/append-only/);
    await expect(owner.query(`DELETE FROM audit_ledger.audit_purged_prefixes WHERE request_id = $1`, [requestId])).rejects.toThrow(/append-only/);
  });

  it('signs checkpoints per tenant over the heads that moved, chained to the one before', async () => {
    const publisher = service.app.get(CheckpointPublisher);
    await publisher.run(); // what earlier tests left
    const requests = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const r of requests) await chainOf(r, 2, 'tenant-cp');
    const made = (await publisher.run()).filter((c) => c.tenantId === 'tenant-cp');
    // maxLeaves is 3 here: four moved heads make two checkpoints, the second linked to the first.
    expect(made.map((c) => [c.number, c.leafCount])).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(made[1].previousRoot).toBe(made[0].root);
    for (const c of made) expect(checkpointSignatureValid(c)).toBe(true);

    const leaves = [];
    for (const c of made) {
      const rows = await ledger.store.checkpointLeaves(ledger.dataSource, c.checkpointId);
      expect(merkleRoot(rows.map(leafHash))).toBe(c.root);
      leaves.push(...rows);
    }
    const heads = await Promise.all([...requests].sort().map(async (r) => (await ledger.view('tenant-cp', r))!.head));
    expect(leaves).toEqual([...requests].sort().map((requestId, i) => ({ requestId, ...heads[i] })));

    const outbox = (await owner.query(`SELECT envelope FROM audit_ledger.outbox WHERE event_type = $1 AND tenant_id = 'tenant-cp' ORDER BY created_at`, [AuditEventTypes.checkpointSigned])).rows;
    expect(outbox.map((r) => (r.envelope as CloudEventEnvelope).data.checkpointId)).toEqual(made.map((c) => c.checkpointId));

    expect(await publisher.run()).toEqual([]);
    await expect(owner.query(`DELETE FROM audit_ledger.audit_checkpoints WHERE tenant_id = 'tenant-cp'`)).rejects.toThrow(/append-only/);
    await expect(owner.query(`UPDATE audit_ledger.audit_checkpoint_leaves SET hash = 'x'`)).rejects.toThrow(/append-only/);
    await chainOf(requests[0], 1, 'tenant-cp');
    const [next] = await publisher.run();
    expect(next).toMatchObject({ tenantId: 'tenant-cp', number: 3, leafCount: 1, previousRoot: made[1].root });
  });

  it('keeps each payload as the RFC 8785 text its hash covers, also for chains written before, and holds it to a JSON object', async () => {
    const old = await createTestDatabase();
    const config = testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: old.url, DB_MIGRATIONS: 'run' });
    const off = checkpointSettingsFrom({});
    // Keys whose jsonb order (shorter first) is not RFC 8785 order, non-ASCII text, a number jsonb prints its own way.
    const data = { zz: { b: 2, aa: [1, 'x'] }, b: 'é 🔏', aa: 1e21 };
    const canonical = '{"aa":1e+21,"b":"é 🔏","requestId":"%R","tenantId":"tenant-a","zz":{"aa":[1,"x"],"b":2}}';
    try {
      const requestId = randomUUID();
      const before = await hostService({ ...auditLedgerServiceWith(off), migrations: [LedgerEvents1763700000200, AuditChain1763700000210] }, config);
      try {
        for (const e of [event(requestId, RequestEventTypes.created, data), event(requestId, LifecycleEventTypes.acknowledged, data)]) await before.app.get(Ledger).append(e);
      } finally {
        await before.close();
      }
      const after = await hostService(auditLedgerServiceWith(off), config);
      const client = new Client({ connectionString: old.url });
      await client.connect();
      try {
        const stored = (await client.query(`SELECT payload FROM audit_ledger.audit_entries WHERE request_id = $1 ORDER BY sequence`, [requestId])).rows;
        expect(stored.map((r) => r.payload)).toEqual([canonical.replace('%R', requestId), canonical.replace('%R', requestId)]);
        const upgraded = after.app.get(Ledger);
        const entries = await upgraded.eventsOf('tenant-a', requestId);
        expect(entries[1].payload).toEqual({ ...data, requestId, tenantId: 'tenant-a' });
        await expect(after.app.get(ChainVerification).verify('tenant-a', requestId, { hash: entries[1].hash, sequence: 2 })).resolves.toMatchObject({ verified: true });

        // Appends after the upgrade store the same text, and the column takes nothing but a JSON object.
        const next = event(requestId, LifecycleEventTypes.acknowledged, data);
        await upgraded.append(next);
        const [third] = (await client.query(`SELECT payload FROM audit_ledger.audit_entries WHERE event_id = $1`, [next.id])).rows;
        expect(third.payload).toBe(canonical.replace('%R', requestId));
        for (const payload of ['[1]', 'not json']) {
          await expect(
            client.query(
              `INSERT INTO audit_ledger.audit_entries (tenant_id, request_id, sequence, event_id, event_type, source, actor, occurred_at, recorded_at, payload, prev_hash, hash)
               VALUES ('tenant-a', $1, 9, $2, 'x', 'x', 'x', now(), now(), $3, 'x', 'x')`,
              [requestId, randomUUID(), payload],
            ),
          ).rejects.toThrow(/audit_entries_payload_object|invalid input syntax for type json/);
        }
      } finally {
        await client.end();
        await after.close();
      }
    } finally {
      await old.drop();
    }
  });

  it('turns the events recorded before the chain existed into chains when it upgrades', async () => {
    const old = await createTestDatabase();
    const config = testHostConfig({ DB_DRIVER: 'postgres', DATABASE_URL: old.url, DB_MIGRATIONS: 'run' });
    const off = checkpointSettingsFrom({});
    try {
      const before = await hostService({ ...auditLedgerServiceWith(off), migrations: [LedgerEvents1763700000200] }, config);
      await before.close();
      const requestId = randomUUID();
      const client = new Client({ connectionString: old.url });
      await client.connect();
      const ids = [randomUUID(), randomUUID()];
      await client.query(
        `INSERT INTO audit_ledger.ledger_events (tenant_id, request_id, event_id, event_type, source, occurred_at, payload) VALUES
           ('tenant-a', $1, $2, $3, '/dsar/lifecycle-clock', '2026-05-04T10:00:00Z', $4),
           ('tenant-a', $1, $5, $6, '/dsar/lifecycle-clock', '2026-05-06T10:00:00Z', $7)`,
        [requestId, ids[0], RequestEventTypes.created, { requestId }, ids[1], RequestEventTypes.deadlineExtended, { requestId, actor: 'ops', reason: 'Jane Roe' }],
      );
      await client.end();

      const after = await hostService(auditLedgerServiceWith(off), config);
      try {
        const upgraded = after.app.get(Ledger);
        const entries = await upgraded.eventsOf('tenant-a', requestId);
        expect(entries.map((e) => [e.sequence, e.eventId, e.actor])).toEqual([
          [1, ids[0], 'lifecycle-clock'],
          [2, ids[1], 'ops'],
        ]);
        expect(entries[1].payload.reason).toMatch(/^hmac-sha256:/);
        await expect(after.app.get(ChainVerification).verify('tenant-a', requestId, { hash: entries[1].hash, sequence: 2 })).resolves.toMatchObject({ verified: true });
      } finally {
        await after.close();
      }
    } finally {
      await old.drop();
    }
  });
});
