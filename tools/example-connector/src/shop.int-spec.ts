import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import type { Task, TaskContext } from '@dsar/connector-sdk';
import { databaseUrl, uniqueSuffix } from '@dsar/platform/testing';
import { SAMPLE_CUSTOMERS, schemaName, setupShop, shopHandler } from './shop';

/**
 * The example shop's handler on the real PostgreSQL, with a recording stand-in for the connector's context (the
 * whole path through the SDK and the service is tools/embedded/src/data-systems.e2e-spec.ts).
 */
describe('the example shop', () => {
  const pool = new Pool({ connectionString: databaseUrl(), max: 3 });
  const schema = `shop_int_${uniqueSuffix()}`;
  const at = new Date('2026-06-01T10:00:00Z');
  const handler = shopHandler(pool, schema, { performedBy: 'shop-test', now: () => at });
  const uploads: Array<{ kind: string; name?: string; category?: string; body: unknown }> = [];
  const context: TaskContext = {
    signal: new AbortController().signal,
    log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    heartbeat: async () => undefined,
    uploadRows: async (rows, category) => {
      uploads.push({ kind: 'rows', category, body: rows });
      return { taskId: randomUUID(), artifactId: randomUUID(), size: 1, sha256: 'a'.repeat(64) };
    },
    uploadFile: async (name, _type, body) => {
      uploads.push({ kind: 'file', name, body: JSON.parse(String(body)) });
      return { taskId: randomUUID(), artifactId: randomUUID(), size: 1, sha256: 'a'.repeat(64) };
    },
  };
  const task = (action: Task['action'], identities: Task['identities']): Task => ({
    taskId: randomUUID(),
    requestId: randomUUID(),
    requestType: action === 'erasure' ? 'deletion' : 'access',
    systemKey: 'shop',
    action,
    legalDueAt: '2026-07-01T00:00:00.000Z',
    dueAt: '2026-06-04T00:00:00.000Z',
    identities,
    dataCategories: [],
    attempt: 1,
    leaseExpiresAt: '2026-06-01T10:05:00.000Z',
    tokenExpiresAt: '2026-06-08T00:00:00.000Z',
  });

  beforeAll(async () => {
    await setupShop(pool, schema, { seed: SAMPLE_CUSTOMERS });
    // Twice: the setup is idempotent, the sample customers are not added again.
    await setupShop(pool, schema, { seed: SAMPLE_CUSTOMERS });
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${schemaName(schema)} CASCADE`);
    await pool.end();
  });

  it('seeds the sample customers once', async () => {
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${schemaName(schema)}.customer`);
    expect(rows[0].n).toBe(SAMPLE_CUSTOMERS.length);
  });

  it('answers access with the customer as rows and the orders as a file, found by any identity (the email without case)', async () => {
    const answer = await handler(task('access', [{ type: 'email', value: 'JANE@example.org' }]), context);
    expect(answer).toEqual({ outcome: 'complete', note: '1 customer record(s), 2 order(s)' });
    expect(uploads[0]).toMatchObject({ kind: 'rows', category: 'contact_details', body: [expect.objectContaining({ email: 'jane@example.org', account_id: 'acct-1001' })] });
    expect(uploads[1]).toMatchObject({
      kind: 'file',
      name: expect.stringMatching(/^orders-/),
      body: { orders: [expect.objectContaining({ item: 'Espresso machine' }), expect.objectContaining({ item: 'Coffee beans 1 kg' })] },
    });
    uploads.length = 0;
    expect(await handler(task('access', [{ type: 'account_id', value: 'acct-1002' }]), context)).toMatchObject({ outcome: 'complete' });
    expect(uploads[0].body).toEqual([expect.objectContaining({ name: 'Max Mustermann' })]);
  });

  it('answers not_found for identities it does not know, and skips actions it does not take', async () => {
    expect(await handler(task('access', [{ type: 'email', value: 'nobody@example.org' }]), context)).toMatchObject({ outcome: 'not_found' });
    expect(await handler(task('rectification', [{ type: 'email', value: 'jane@example.org' }]), context)).toMatchObject({ outcome: 'skipped' });
  });

  it('erases with real deletes and their counts; the same task again answers the same confirmation, deleting nothing more', async () => {
    const erasure = task('erasure', [{ type: 'email', value: 'max@example.org' }]);
    const first = await handler(erasure, context);
    const confirmation = { result: 'erased', recordsAffected: 2, categoriesErased: ['contact_details', 'orders'], method: 'delete', performedBy: 'shop-test', performedAt: at.toISOString() };
    expect(first).toMatchObject({ outcome: 'complete', erasure: confirmation });
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${schemaName(schema)}.customer WHERE email = 'max@example.org'`);
    expect(rows[0].n).toBe(0);
    expect(await handler(erasure, context)).toEqual({ outcome: 'complete', erasure: confirmation });
    // Another task for the same person: nobody left.
    expect(await handler(task('erasure', [{ type: 'email', value: 'max@example.org' }]), context)).toMatchObject({ outcome: 'not_found' });
    // Erika has no orders: only her contact details go.
    expect(await handler(task('erasure', [{ type: 'account_id', value: 'acct-1003' }]), context)).toMatchObject({ erasure: { recordsAffected: 1, categoriesErased: ['contact_details'] } });
  });
});
