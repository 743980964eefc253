import { type DataSource } from 'typeorm';
import { dataSourceOptions, openDataSource, UnitOfWork } from '@dsar/platform/persistence';
import { idempotencyMigrations, IdempotencyStore } from '@dsar/platform/idempotency';
import { createTestDatabase } from './infrastructure';

const SCHEMA = 'idempotency_spec';

/** The purge of expired keys on a real PostgreSQL database. */
describe('IdempotencyStore on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let ds: DataSource;
  let store: IdempotencyStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await openDataSource(
      await dataSourceOptions({ driver: 'postgres', url: db.url, dataDir: '', poolSize: 2, schema: SCHEMA, entities: [], migrations: idempotencyMigrations, applicationName: 'idempotency-spec' }),
      'run',
    );
    store = new IdempotencyStore(new UnitOfWork(ds), SCHEMA);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('deletes the expired keys a thousand per statement, and leaves the live ones', async () => {
    await ds.query(
      `INSERT INTO ${SCHEMA}.idempotency_keys (tenant_id, principal, key, fingerprint, state, locked_until, expires_at)
       SELECT 't', 'p', 'k-' || g, 'f', 'completed', now(), CASE WHEN g <= 2500 THEN now() - interval '1 hour' ELSE now() + interval '1 hour' END
         FROM generate_series(1, 2600) g`,
    );
    const deletes: number[] = [];
    const query = ds.query.bind(ds);
    const spy = jest.spyOn(ds, 'query').mockImplementation(async (sql: string, parameters?: unknown[]) => {
      const rows = await query(sql, parameters);
      if (sql.includes('DELETE')) deletes.push((rows as Array<{ count: number }>)[0].count);
      return rows;
    });
    try {
      await expect(store.purgeExpired()).resolves.toBe(2500);
    } finally {
      spy.mockRestore();
    }
    expect(deletes).toEqual([1000, 1000, 500]);
    const [{ left }] = await ds.query(`SELECT count(*)::int AS left FROM ${SCHEMA}.idempotency_keys`);
    expect(left).toBe(100);
    await expect(store.purgeExpired()).resolves.toBe(0);
  });
});
