import { PGlite } from '@electric-sql/pglite';
import { SessionLock } from './async-mutex';
import { PgliteMaintenance } from './pglite-maintenance';

// PGlite loads parts of itself with `import()`, which Jest's sandbox refuses: the real package is loaded with Node's
// own require (as persistence.spec.ts does). Nothing of PGlite is faked.
jest.mock('@electric-sql/pglite', () => {
  type NodeModule = typeof import('node:module');
  const sandboxed = jest.requireActual<NodeModule>('node:module');
  const base = Object.getPrototypeOf(sandboxed.Module) as Partial<NodeModule>;
  const createRequire = base.createRequire ?? sandboxed.createRequire;
  return createRequire(__filename)('@electric-sql/pglite');
});

let db: PGlite;
const lock = new SessionLock();
const errors: string[] = [];
let maintenance: PgliteMaintenance;

/** The table's statistics as the planner and the cumulative statistics see them. */
async function state(table: string): Promise<{ reltuples: number; dead: number; analyzed: boolean }> {
  // The counters reach pg_stat_user_tables when the backend flushes them: forced, then one more statement.
  await db.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.query<{ reltuples: number; dead: number; analyzed: boolean }>(
    `SELECT c.reltuples, s.n_dead_tup::int AS dead, s.last_analyze IS NOT NULL AS analyzed FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = $1`,
    [table],
  );
  return rows[0];
}

beforeAll(async () => {
  db = await PGlite.create();
  await db.exec(`CREATE SCHEMA shop; CREATE TABLE shop.items (id int PRIMARY KEY, price int NOT NULL); CREATE TABLE shop.quiet (id int PRIMARY KEY)`);
  // The interval does not matter: the tests call run(), and start() is never called.
  maintenance = new PgliteMaintenance({ db, lock }, { error: (m) => errors.push(m) }, 60_000);
}, 60_000);

afterAll(async () => {
  await maintenance.stop();
  await db.close();
});

describe('PgliteMaintenance', () => {
  it('vacuums and analyzes the tables past the thresholds, and only those', async () => {
    // shop.quiet stays empty: nothing to gain.
    await db.exec(`INSERT INTO shop.items SELECT g, g FROM generate_series(1, 2000) g`);
    await state('items');
    expect(await maintenance.run()).toEqual(['shop.items']);
    expect(await state('items')).toEqual({ reltuples: 2000, dead: 0, analyzed: true });
    // Nothing changed since: nothing to do.
    await state('items');
    expect(await maintenance.run()).toEqual([]);
  });

  it('analyzes a table once a tenth of it changed, and vacuums it once a fifth of it is dead rows', async () => {
    await db.exec(`UPDATE shop.items SET price = price + 1 WHERE id <= 100`);
    await state('items');
    expect(await maintenance.run()).toEqual([]);
    await db.exec(`UPDATE shop.items SET price = price + 1 WHERE id <= 200`);
    await state('items');
    // 300 rows changed: past the analyze threshold (250), not the vacuum one (450).
    expect(await maintenance.run()).toEqual(['shop.items']);
    // Analyzed, not vacuumed: the dead rows are still there (fewer than 300 where an update pruned its page).
    expect((await state('items')).dead).toBeGreaterThan(0);
    await db.exec(`UPDATE shop.items SET price = price + 1`);
    expect((await state('items')).dead).toBeGreaterThan(450);
    expect(await maintenance.run()).toEqual(['shop.items']);
    expect((await state('items')).dead).toBe(0);
    expect(errors).toEqual([]);
  });

  it('waits for the unit of work that holds the session', async () => {
    await db.exec(`INSERT INTO shop.items SELECT g, g FROM generate_series(2001, 3000) g`);
    await state('items');
    const release = await lock.acquire();
    let done = false;
    const round = maintenance.run().then((tables) => {
      done = true;
      return tables;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(done).toBe(false);
    release();
    expect(await round).toEqual(['shop.items']);
  });
});
