import { existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Column, type DataSource, Entity, type MigrationInterface, PrimaryGeneratedColumn, type QueryRunner } from 'typeorm';
import { dataSourceOptions, type DatabaseSettings, openDataSource, PendingMigrationsError, schemaOf } from './data-source';
import { PgliteHost, pgliteDirectory } from './pglite-driver';
import { clusterTemplateFile } from './pglite-template';
import { combinedWrite, entityInsert } from './sql-write';
import { UnitOfWork } from './unit-of-work';

// PGlite's CommonJS build loads parts of itself with `import()`, which Jest's
// module sandbox refuses unless Node runs with --experimental-vm-modules. So
// the real package is loaded with Node's own require, outside the sandbox
// (Jest's `node:module` is a subclass of Node's Module whose createRequire
// stays in the sandbox; the base class's does not). Nothing of PGlite is faked.
jest.mock('@electric-sql/pglite', () => {
  type NodeModule = typeof import('node:module');
  const sandboxed = jest.requireActual<NodeModule>('node:module');
  const base = Object.getPrototypeOf(sandboxed.Module) as Partial<NodeModule>;
  const createRequire = base.createRequire ?? sandboxed.createRequire;
  return createRequire(__filename)('@electric-sql/pglite');
});

/**
 * The embedded database as a service sees it: PGlite behind TypeORM, with the
 * service's own schema, migrations, units of work and node-postgres values.
 * Like the embedded mode, the tests share one in-memory database and give
 * each "service" its own schema.
 */

@Entity({ name: 'widgets' })
class Widget {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('text')
  name: string;

  @Column('date', { name: 'made_on', nullable: true })
  madeOn: string | null;

  @Column('bigint', { default: 0 })
  counter: string;
}

class Widgets1700000000001 implements MigrationInterface {
  name = 'Widgets1700000000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ${schemaOf(q)}.widgets (
      id bigserial PRIMARY KEY, name text NOT NULL, made_on date, counter int8 NOT NULL DEFAULT 0, price numeric(12, 2))`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${schemaOf(q)}.widgets`);
  }
}

class WidgetColour1700000000002 implements MigrationInterface {
  name = 'WidgetColour1700000000002';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${schemaOf(q)}.widgets ADD COLUMN colour text`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${schemaOf(q)}.widgets DROP COLUMN colour`);
  }
}

const SHARED_DB = 'memory://persistence-spec';
let schemas = 0;
const nextSchema = () => `widget_service_${++schemas}`;

function settings(schema: string, { dataDir = SHARED_DB, migrations = [Widgets1700000000001] }: { dataDir?: string; migrations?: DatabaseSettings['migrations'] } = {}): DatabaseSettings {
  return { driver: 'pglite', dataDir, poolSize: 10, schema, entities: [Widget], migrations, applicationName: 'persistence-spec' };
}

/** A new service schema with the widget migrations applied; `table` is its quoted widgets table. */
async function freshService(): Promise<{ ds: DataSource; schema: string; table: string }> {
  const schema = nextSchema();
  const ds = await openDataSource(await dataSourceOptions(settings(schema)), 'run');
  return { ds, schema, table: `"${schema}".widgets` };
}

const names = async (ds: DataSource, table: string): Promise<string[]> => (await ds.query(`SELECT name FROM ${table} ORDER BY id`)).map((r: { name: string }) => r.name);

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every statement sent through the DataSource's query runners from now on (units of work and `ds.query` alike), whitespace folded. */
function sentStatements(ds: DataSource): string[] {
  const sent: string[] = [];
  const create = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = (...args) => {
    const qr = create(...args);
    const query = qr.query.bind(qr);
    qr.query = ((sql: string, params?: unknown[]) => {
      sent.push(sql.replace(/\s+/g, ' ').trim());
      return query(sql, params);
    }) as QueryRunner['query'];
    return qr;
  };
  return sent;
}

// Starting PGlite (compiling its WebAssembly, creating the cluster) takes seconds; do it once, up front.
beforeAll(() => PgliteHost.open(SHARED_DB), 60_000);

afterAll(async () => {
  await PgliteHost.closeAll();
});

describe('migrations', () => {
  it('create the tables and the migrations table inside the service schema', async () => {
    const { ds, schema } = await freshService();
    try {
      const tables: { table_schema: string; table_name: string }[] = await ds.query(
        `SELECT table_schema, table_name FROM information_schema.tables
          WHERE table_name IN ('widgets', 'schema_migrations') AND table_schema IN ($1, 'public')
          ORDER BY table_name`,
        [schema],
      );
      expect(tables).toEqual([
        { table_schema: schema, table_name: 'schema_migrations' },
        { table_schema: schema, table_name: 'widgets' },
      ]);
    } finally {
      await ds.destroy();
    }
  });

  it("'check' refuses to start while migrations are pending and starts after 'run'", async () => {
    const schema = nextSchema();
    const options = await dataSourceOptions(settings(schema));

    await expect(openDataSource(options, 'check')).rejects.toBeInstanceOf(PendingMigrationsError);
    await expect(openDataSource(options, 'check')).rejects.toThrow(`Schema "${schema}" has migrations that are not applied`);

    await (await openDataSource(options, 'run')).destroy();
    const checked = await openDataSource(options, 'check');
    expect(await checked.query(`SELECT count(*)::int AS n FROM "${schema}".widgets`)).toEqual([{ n: 0 }]);
    await checked.destroy();

    const withNewMigration = await dataSourceOptions(settings(schema, { migrations: [Widgets1700000000001, WidgetColour1700000000002] }));
    await expect(openDataSource(withNewMigration, 'check')).rejects.toBeInstanceOf(PendingMigrationsError);
  });

  it("'run' applies only what is pending and records each migration once", async () => {
    const schema = nextSchema();
    await (await openDataSource(await dataSourceOptions(settings(schema)), 'run')).destroy();
    const ds = await openDataSource(await dataSourceOptions(settings(schema, { migrations: [Widgets1700000000001, WidgetColour1700000000002] })), 'run');
    try {
      const applied = await ds.query(`SELECT name FROM "${schema}".schema_migrations ORDER BY id`);
      expect(applied).toEqual([{ name: 'Widgets1700000000001' }, { name: 'WidgetColour1700000000002' }]);
      await ds.query(`INSERT INTO "${schema}".widgets (name, colour) VALUES ('w', 'red')`);
    } finally {
      await ds.destroy();
    }
  });
});

describe('UnitOfWork', () => {
  let ds: DataSource;
  let T: string;
  let uow: UnitOfWork;

  beforeEach(async () => {
    ({ ds, table: T } = await freshService());
    uow = new UnitOfWork(ds);
  });

  afterEach(async () => {
    await ds.destroy();
  });

  describe('atomicity', () => {
    it('commits both inserts together', async () => {
      await uow.run(async (tx) => {
        await tx.query(`INSERT INTO ${T} (name) VALUES ('one')`);
        await tx.getRepository(Widget).insert({ name: 'two' });
      });
      expect(await names(ds, T)).toEqual(['one', 'two']);
    });

    it('rolls back both inserts when the work throws, and the session stays usable', async () => {
      await expect(
        uow.run(async (tx) => {
          await tx.query(`INSERT INTO ${T} (name) VALUES ('one')`);
          await tx.getRepository(Widget).insert({ name: 'two' });
          throw new Error('use case failed');
        }),
      ).rejects.toThrow('use case failed');
      expect(await names(ds, T)).toEqual([]);

      await uow.run((tx) => tx.query(`INSERT INTO ${T} (name) VALUES ('after')`));
      expect(await names(ds, T)).toEqual(['after']);
    });

    it('rolls back the earlier insert when a later statement fails in the database', async () => {
      await expect(
        uow.run(async (tx) => {
          await tx.query(`INSERT INTO ${T} (name) VALUES ('one')`);
          await tx.query(`INSERT INTO ${T} (name) VALUES (NULL)`);
        }),
      ).rejects.toThrow(/null value/);
      expect(await names(ds, T)).toEqual([]);
    });
  });

  describe('nesting', () => {
    it('joins the outer transaction: same manager, and an outer failure undoes the inner work', async () => {
      let innerRan = false;
      await expect(
        uow.run(async (outerTx) => {
          await outerTx.query(`INSERT INTO ${T} (name) VALUES ('outer')`);
          await uow.run(async (innerTx) => {
            expect(innerTx).toBe(outerTx);
            expect(uow.activeManager).toBe(outerTx);
            await innerTx.query(`INSERT INTO ${T} (name) VALUES ('inner')`);
            innerRan = true;
          });
          throw new Error('outer failed after the inner unit returned');
        }),
      ).rejects.toThrow('outer failed');
      expect(innerRan).toBe(true);
      expect(await names(ds, T)).toEqual([]);
    });

    it('commits the inner work with the outer transaction', async () => {
      await uow.run(async (tx) => {
        await tx.query(`INSERT INTO ${T} (name) VALUES ('outer')`);
        await uow.run((innerTx) => innerTx.query(`INSERT INTO ${T} (name) VALUES ('inner')`));
      });
      expect(await names(ds, T)).toEqual(['outer', 'inner']);
      expect(uow.activeManager).toBeUndefined();
    });

    it('gives the caller its transaction inside a unit of work and the data source outside one', async () => {
      expect(uow.manager).toBe(ds.manager);
      await uow.run(async (tx) => {
        expect(uow.manager).toBe(tx);
        await uow.manager.query(`INSERT INTO ${T} (name) VALUES ('through the accessor')`);
      });
      expect(uow.manager).toBe(ds.manager);
      expect(await names(ds, T)).toEqual(['through the accessor']);
    });
  });

  describe('afterCommit hooks', () => {
    it('run after a commit, see the committed data, and do not run after a rollback', async () => {
      const seenByHook: Promise<string[]>[] = [];
      uow.afterCommit(() => void seenByHook.push(names(ds, T)));

      await uow.run(async (tx) => {
        await tx.query(`INSERT INTO ${T} (name) VALUES ('committed')`);
        await uow.run((inner) => inner.query(`INSERT INTO ${T} (name) VALUES ('nested')`));
        expect(seenByHook).toHaveLength(0);
      });
      expect(seenByHook).toHaveLength(1); // once, for the outermost commit
      expect(await seenByHook[0]).toEqual(['committed', 'nested']);

      await expect(
        uow.run(async (tx) => {
          await tx.query(`INSERT INTO ${T} (name) VALUES ('rolled back')`);
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(seenByHook).toHaveLength(1);
    });
  });

  describe('deferred writes', () => {
    const insert = (name: string) => ({ sql: `INSERT INTO ${T} (name) VALUES ($1)`, params: [name] });

    it('go out as one statement after the work, right before COMMIT; the transaction starts in one statement', async () => {
      const sent = sentStatements(ds);
      await uow.run(async (tx) => {
        uow.defer(tx, insert('deferred-1'));
        await tx.query(`INSERT INTO ${T} (name) VALUES ('at once')`);
        await uow.run(async (inner) => uow.defer(inner, insert('deferred-2'), insert('deferred-3')));
        // Not sent yet: the transaction does not see them.
        expect(await tx.query(`SELECT count(*)::int AS n FROM ${T}`)).toEqual([{ n: 1 }]);
      });
      expect(sent).toEqual([
        'START TRANSACTION',
        `INSERT INTO ${T} (name) VALUES ('at once')`,
        `SELECT count(*)::int AS n FROM ${T}`,
        `WITH w1 AS (INSERT INTO ${T} (name) VALUES ($1)), w2 AS (INSERT INTO ${T} (name) VALUES ($2)) INSERT INTO ${T} (name) VALUES ($3)`,
        'COMMIT',
      ]);
      expect((await names(ds, T)).sort()).toEqual(['at once', 'deferred-1', 'deferred-2', 'deferred-3']);
    });

    it('are dropped when the work throws, and roll the transaction back when one fails in the database', async () => {
      await expect(
        uow.run(async (tx) => {
          uow.defer(tx, insert('never'));
          throw new Error('use case failed');
        }),
      ).rejects.toThrow('use case failed');
      await expect(
        uow.run(async (tx) => {
          await tx.query(`INSERT INTO ${T} (name) VALUES ('earlier')`);
          uow.defer(tx, insert('fine'), { sql: `INSERT INTO ${T} (name) VALUES ($1)`, params: [null] });
        }),
      ).rejects.toThrow(/null value/);
      expect(await names(ds, T)).toEqual([]);
      await uow.run(async (tx) => uow.defer(tx, insert('after')));
      expect(await names(ds, T)).toEqual(['after']);
    });

    it('keep one write per key of deferLatest, the last given, in the place of the first', async () => {
      const sent = sentStatements(ds);
      await uow.run(async (tx) => {
        uow.deferLatest(tx, 'counter', insert('counter at 1'));
        uow.defer(tx, insert('between'));
        uow.deferLatest(tx, 'other', insert('other'));
        await uow.run(async (inner) => uow.deferLatest(inner, 'counter', insert('counter at 3')));
      });
      expect(sent).toEqual(['START TRANSACTION', `WITH w1 AS (INSERT INTO ${T} (name) VALUES ($1)), w2 AS (INSERT INTO ${T} (name) VALUES ($2)) INSERT INTO ${T} (name) VALUES ($3)`, 'COMMIT']);
      expect((await names(ds, T)).sort()).toEqual(['between', 'counter at 3', 'other']);
      expect(() => uow.deferLatest(ds.manager, 'counter', insert('nowhere'))).toThrow(/only inside the unit of work/);
    });

    it('are refused outside a unit of work, or for a transaction that is not the current one', async () => {
      expect(() => uow.defer(ds.manager, insert('nowhere'))).toThrow(/only inside the unit of work/);
      await uow.run(async () => expect(() => uow.defer(ds.manager, insert('elsewhere'))).toThrow(/only inside the unit of work/));
      expect(await names(ds, T)).toEqual([]);
    });

    it('keep the isolation a unit of work asks for: another than the default is set after the start', async () => {
      const sent = sentStatements(ds);
      const level = await uow.run(async (tx) => (await tx.query(`SELECT current_setting('transaction_isolation') AS level`))[0].level, 'REPEATABLE READ');
      expect(level).toBe('repeatable read');
      expect(sent.slice(0, 2)).toEqual(['START TRANSACTION', 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ']);
      expect(await uow.run(async (tx) => (await tx.query(`SELECT current_setting('transaction_isolation') AS level`))[0].level)).toBe('read committed');
    });
  });

  describe('the single PGlite session', () => {
    it('runs concurrent units of work one after the other, never interleaved', async () => {
      const unit = (tag: string) =>
        uow.run(async (tx) => {
          await tx.query(`INSERT INTO ${T} (name) VALUES ($1)`, [`${tag}-first`]);
          await nextMacrotask(); // give the other units every chance to slip in
          const [{ n }] = await tx.query(`SELECT count(*)::int AS n FROM ${T}`);
          await tx.query(`INSERT INTO ${T} (name, counter) VALUES ($1, $2)`, [`${tag}-second`, n]);
        });

      await Promise.all([unit('a'), unit('b'), unit('c')]);

      const rows: { name: string; counter: string }[] = await ds.query(`SELECT name, counter FROM ${T} ORDER BY id`);
      expect(rows).toEqual([
        { name: 'a-first', counter: '0' },
        { name: 'a-second', counter: '1' },
        { name: 'b-first', counter: '0' },
        { name: 'b-second', counter: '3' },
        { name: 'c-first', counter: '0' },
        { name: 'c-second', counter: '5' },
      ]);
    });

    it('keeps a plain query waiting until the running unit of work has committed', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let signalInserted!: () => void;
      const inserted = new Promise<void>((resolve) => (signalInserted = resolve));
      const work = uow.run(async (tx) => {
        await tx.query(`INSERT INTO ${T} (name) VALUES ('first')`);
        signalInserted();
        await gate;
        await tx.query(`INSERT INTO ${T} (name) VALUES ('second')`);
      });
      await inserted;
      const read = names(ds, T); // issued mid-transaction: must see both rows or neither, never one
      release();
      await work;
      expect(await read).toEqual(['first', 'second']);
    });
  });
});

describe('raw writes', () => {
  let ds: DataSource;
  let T: string;
  let schema: string;

  beforeAll(async () => {
    ({ ds, table: T, schema } = await freshService());
  });

  afterAll(async () => {
    await ds.destroy();
  });

  it("combinedWrite numbers each write's placeholders after those before it, and leaves one write as it is", () => {
    const one = { sql: 'UPDATE t SET a = $1 WHERE b = $2', params: [1, 2] };
    expect(combinedWrite([one])).toBe(one);
    expect(combinedWrite([one, { sql: 'DELETE FROM u WHERE c = $1 OR d = $1', params: [3] }, { sql: 'INSERT INTO v VALUES ($2, $1, $10)', params: [4, 5, 6, 7, 8, 9, 10, 11, 12, 13] }])).toEqual({
      sql: 'WITH w1 AS (UPDATE t SET a = $1 WHERE b = $2), w2 AS (DELETE FROM u WHERE c = $3 OR d = $3) INSERT INTO v VALUES ($5, $4, $13)',
      params: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    });
    expect(() => combinedWrite([])).toThrow(/at least one/);
  });

  it('entityInsert writes what the repository would, a column left undefined taking its default, in one statement with others', async () => {
    const insert = entityInsert(ds, Widget, [{ name: 'made', madeOn: '2024-02-29', counter: '9007199254740993' } as Widget, { name: 'plain' } as Widget]);
    expect(insert.sql).toBe(`INSERT INTO "${schema}"."widgets" ("id", "name", "made_on", "counter") VALUES (DEFAULT, $1, $2, $3), (DEFAULT, $4, DEFAULT, DEFAULT)`);
    const combined = combinedWrite([insert, { sql: `UPDATE ${T} SET counter = $1 WHERE name = 'earlier'`, params: ['5'] }]);
    await ds.query(`INSERT INTO ${T} (name) VALUES ('earlier')`);
    await ds.query(combined.sql, [...combined.params]);
    const rows: Array<{ name: string; made_on: string | null; counter: string }> = await ds.query(`SELECT name, made_on, counter FROM ${T} ORDER BY id`);
    expect(rows).toEqual([
      { name: 'earlier', made_on: null, counter: '5' },
      { name: 'made', made_on: '2024-02-29', counter: '9007199254740993' },
      { name: 'plain', made_on: null, counter: '0' },
    ]);
  });

  it('openDataSource refuses a database whose default isolation is not read committed (a unit of work relies on it)', async () => {
    // PGlite has one session, which every DataSource of the process shares: the setting is the session's, reset after.
    await ds.query(`SET default_transaction_isolation = 'repeatable read'`);
    try {
      await expect(openDataSource(await dataSourceOptions(settings(nextSchema())), 'run')).rejects.toThrow(/default_transaction_isolation is "repeatable read"/);
    } finally {
      await ds.query(`RESET default_transaction_isolation`);
    }
  });
});

describe('values as node-postgres returns them', () => {
  let ds: DataSource;
  let T: string;

  beforeAll(async () => {
    ({ ds, table: T } = await freshService());
  });

  afterAll(async () => {
    await ds.destroy();
  });

  it('returns int8 and bigserial as strings, exact beyond 2^53, and numeric as a string', async () => {
    await ds.query(`INSERT INTO ${T} (name, counter, price) VALUES ('big', $1, 12.5)`, ['9007199254740993']);
    const [row] = await ds.query(`SELECT id, counter, price, count(*) OVER () AS total FROM ${T} WHERE name = 'big'`);
    expect(row).toEqual({ id: expect.stringMatching(/^\d+$/), counter: '9007199254740993', price: '12.50', total: '1' });

    const entity = await ds.getRepository(Widget).findOneByOrFail({ name: 'big' });
    expect(entity.id).toBe(row.id);
    expect(entity.counter).toBe('9007199254740993');
  });

  it("returns DATE as 'YYYY-MM-DD', without a time zone shift", async () => {
    await ds.getRepository(Widget).insert({ name: 'dated', madeOn: '2024-02-29' });
    const [row] = await ds.query(`SELECT made_on FROM ${T} WHERE name = 'dated'`);
    expect(row.made_on).toBe('2024-02-29');
    expect((await ds.getRepository(Widget).findOneByOrFail({ name: 'dated' })).madeOn).toBe('2024-02-29');
  });

  it('reports the rows an UPDATE or DELETE touched through affected', async () => {
    const repo = ds.getRepository(Widget);
    await repo.insert([{ name: 'u1' }, { name: 'u2' }, { name: 'keep' }]);
    const updated = await repo
      .createQueryBuilder()
      .update()
      .set({ counter: '7' })
      .where('name IN (:...names)', { names: ['u1', 'u2'] })
      .execute();
    expect(updated.affected).toBe(2);
    expect((await repo.update({ name: 'nobody' }, { counter: '1' })).affected).toBe(0);
    expect((await repo.delete({ name: 'keep' })).affected).toBe(1);

    const [rows, count] = await ds.query(`UPDATE ${T} SET counter = counter + 1 WHERE name = 'u1'`);
    expect(rows).toEqual([]);
    expect(count).toBe(1);
  });

  it('passes undefined parameters as NULL', async () => {
    await ds.query(`INSERT INTO ${T} (name, made_on) VALUES ($1, $2)`, ['no-date', undefined]);
    const [row] = await ds.query(`SELECT made_on FROM ${T} WHERE name = 'no-date'`);
    expect(row.made_on).toBeNull();
  });
});

describe('the database on disk', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dsar-pglite-'));
  });

  afterAll(async () => {
    await PgliteHost.closeAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps committed data after the host is closed and the directory reopened', async () => {
    const schema = nextSchema();
    const first = await openDataSource(await dataSourceOptions(settings(schema, { dataDir: dir })), 'run');
    await new UnitOfWork(first).run((tx) => tx.getRepository(Widget).insert({ name: 'survivor', madeOn: '2025-12-31' }));
    await first.destroy();
    await PgliteHost.closeAll();

    const reopened = await openDataSource(await dataSourceOptions(settings(schema, { dataDir: dir })), 'check');
    try {
      const rows = await reopened.getRepository(Widget).find();
      expect(rows.map((r) => [r.name, r.madeOn])).toEqual([['survivor', '2025-12-31']]);
    } finally {
      await reopened.destroy();
    }
  }, 60_000);

  it('fails a query with a clear error once the host is closed', async () => {
    const ds = await openDataSource(await dataSourceOptions(settings(nextSchema(), { dataDir: dir })), 'run');
    const host = await PgliteHost.open(pgliteDirectory(dir));
    await host.close();
    expect(host.isClosed).toBe(true);
    await expect(ds.query('SELECT 1')).rejects.toThrow('The embedded database is closed');
    await ds.destroy();
  }, 60_000);
});

/** New embedded databases start from the cached empty cluster that the first one kept (ADR 0030). */
describe('the cached empty cluster', () => {
  const previousCacheHome = process.env.XDG_CACHE_HOME;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'dsar-pglite-template-'));
    process.env.XDG_CACHE_HOME = path.join(root, 'cache');
  });

  afterAll(async () => {
    await PgliteHost.closeAll();
    if (previousCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = previousCacheHome;
    await rm(root, { recursive: true, force: true });
  });

  const count = async (host: PgliteHost, sql: string): Promise<number> => Number((await host.db.query<{ n: number }>(sql)).rows[0].n);

  it('is kept by the first new database, before anything is written to it, and starts the next ones on disk and in memory', async () => {
    const file = clusterTemplateFile();
    expect(file.startsWith(path.join(root, 'cache', 'dsar', 'pglite-'))).toBe(true);
    expect(existsSync(file)).toBe(false);

    const first = await PgliteHost.open(path.join(root, 'first'));
    expect(existsSync(file)).toBe(true);
    const kept = statSync(file).mtimeMs;
    await first.db.exec('CREATE TABLE written_after_the_template (x int)');

    const second = await PgliteHost.open(path.join(root, 'second'));
    const inMemory = await PgliteHost.open('memory://pglite-template-spec');
    for (const host of [second, inMemory]) {
      expect(await count(host, `SELECT count(*)::int AS n FROM pg_database WHERE datname = 'template1'`)).toBe(1);
      expect(await count(host, `SELECT count(*)::int AS n FROM pg_class WHERE relname = 'written_after_the_template'`)).toBe(0);
    }
    expect(existsSync(path.join(root, 'second', 'PG_VERSION'))).toBe(true);
    // Made from the template, not by initdb: that would have kept a new one.
    expect(statSync(file).mtimeMs).toBe(kept);
  }, 180_000);

  it('is replaced when PGlite cannot start from it, and the new database is made by initdb', async () => {
    writeFileSync(clusterTemplateFile(), 'not a tar');
    const host = await PgliteHost.open(path.join(root, 'third'));
    expect(await count(host, 'SELECT 1 AS n')).toBe(1);
    expect(statSync(clusterTemplateFile()).size).toBeGreaterThan(1_000_000);
  }, 180_000);
});
