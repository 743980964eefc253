import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PGlite, PGliteOptions, Results } from '@electric-sql/pglite';
import { SessionLock } from './async-mutex';
import { dropClusterTemplate, keepClusterTemplate, readClusterTemplate, unpackClusterTemplate } from './pglite-template';

/** Where PGlite keeps the files of a DATA_DIR (its `pg` folder); a `memory://` one keeps nothing. */
export function pgliteDirectory(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : resolve(dataDir, 'pg');
}

/**
 * A `pg`-compatible module over one embedded PGlite database, for TypeORM's
 * `postgres` driver (passed as the DataSource `driver` option). PGlite has a
 * single session, so every pooled "connection" is a lease on that session:
 * a lease lasts from `pool.connect()` to `release()`, which makes each unit of
 * work (a TypeORM transaction) run alone, in order of arrival.
 *
 * Results are shaped like node-postgres results (rows, rowCount, command) and
 * values are parsed the way node-postgres parses them (int8 and numeric as
 * strings, dates as 'YYYY-MM-DD'), so entities behave the same on both drivers.
 *
 * PGlite itself (its module and WebAssembly) is loaded when the first host
 * opens: a service on PostgreSQL never loads it. A new database starts from
 * the cached empty cluster when there is one (pglite-template.ts).
 */
export class PgliteHost {
  private static readonly hosts = new Map<string, Promise<PgliteHost>>();
  readonly lock = new SessionLock();
  private closed = false;

  private constructor(
    readonly dataDir: string,
    readonly db: PGlite,
  ) {}

  /** One host per data directory and process; every service's DataSource shares it. */
  static open(dataDir: string): Promise<PgliteHost> {
    let host = PgliteHost.hosts.get(dataDir);
    if (!host) {
      host = openDatabase(dataDir).then((db) => new PgliteHost(dataDir, db));
      PgliteHost.hosts.set(dataDir, host);
      host.catch(() => PgliteHost.hosts.delete(dataDir));
    }
    return host;
  }

  /** Closes every embedded database of the process (at shutdown, after the DataSources). */
  static async closeAll(): Promise<void> {
    const hosts = await Promise.allSettled([...PgliteHost.hosts.values()]);
    await Promise.all(hosts.map((h) => (h.status === 'fulfilled' ? h.value.close() : undefined)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    PgliteHost.hosts.delete(this.dataDir);
    const release = await this.lock.acquire();
    try {
      await this.db.close();
    } finally {
      release();
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A module object with the parts of `pg` that TypeORM uses. */
  pgModule(): { Pool: new () => PglitePool } {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const host = this;
    return {
      Pool: class extends PglitePool {
        constructor() {
          super(host);
        }
      },
    };
  }
}

/**
 * The embedded database of a data directory (`memory://…`: in memory only). A directory that holds no cluster yet,
 * and every in-memory database, is a new one: unpacked from the cached empty cluster, or made by initdb, whose result
 * then becomes that cache. A template PGlite cannot start from is dropped, and initdb runs on an emptied directory.
 * The unpacking of a template on disk has started when this returns (see unpackClusterTemplate).
 */
function openDatabase(dataDir: string): Promise<PGlite> {
  const inMemory = dataDir.startsWith('memory://');
  try {
    if (!inMemory) mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    return Promise.reject(e);
  }
  const fresh = inMemory || !existsSync(join(dataDir, 'PG_VERSION'));
  const template = fresh ? readClusterTemplate() : undefined;
  const unpacking =
    template && !inMemory
      ? unpackClusterTemplate(template, dataDir).then(
          () => undefined,
          (e: unknown) => e ?? new Error('unpacking failed'),
        )
      : undefined;
  return (async () => {
    const { PGlite, types } = await import('@electric-sql/pglite');
    const options: PGliteOptions = {
      dataDir: inMemory ? undefined : dataDir,
      parsers: {
        [types.INT8]: (v: string) => v,
        [types.NUMERIC]: (v: string) => v,
        [types.DATE]: (v: string) => v,
      },
    };
    if (!fresh) return PGlite.create(options);
    if (template) {
      try {
        if (inMemory) return await PGlite.create({ ...options, loadDataDir: new Blob([template]) });
        const failure = await unpacking;
        if (failure) throw failure;
        return await PGlite.create(options);
      } catch {
        dropClusterTemplate();
        if (!inMemory) {
          rmSync(dataDir, { recursive: true, force: true });
          mkdirSync(dataDir, { recursive: true });
        }
      }
    }
    const db = await PGlite.create(options);
    await keepClusterTemplate(db);
    return db;
  })();
}

type Callback<T> = (err: Error | null, value?: T) => void;

interface PgLikeResult {
  command: string;
  rows: unknown[];
  rowCount: number;
  fields: { name: string }[];
}

const COMMAND = /^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/;

function toPgResult(sql: string, r: Results): PgLikeResult {
  const command = (COMMAND.exec(sql)?.[1] ?? '').toUpperCase();
  const rowCount = command === 'SELECT' || r.affectedRows === undefined ? r.rows.length : r.affectedRows;
  return { command, rows: r.rows, rowCount, fields: r.fields };
}

/** A lease on the PGlite session, shaped like a `pg` client. */
class PgliteClient extends EventEmitter {
  constructor(private readonly host: PgliteHost) {
    super();
  }

  query(sql: string, params?: unknown[] | Callback<PgLikeResult>, cb?: Callback<PgLikeResult>): Promise<PgLikeResult> {
    const callback = typeof params === 'function' ? params : cb;
    const values = typeof params === 'function' ? undefined : params;
    const run = async (): Promise<PgLikeResult> => {
      if (values && values.length > 0) {
        return toPgResult(sql, await this.host.db.query(sql, values.map(toPgliteParam)));
      }
      // Without parameters a string may hold several statements (migrations):
      // the simple protocol runs them all; node-postgres reports the last one.
      const results = await this.host.db.exec(sql);
      const last = results[results.length - 1] ?? { rows: [], fields: [], affectedRows: 0 };
      return toPgResult(sql, last);
    };
    const p = run();
    if (callback)
      p.then(
        (r) => callback(null, r),
        (e: Error) => callback(e),
      );
    return p;
  }
}

/** node-postgres sends undefined as NULL; PGlite's serializers expect null. */
function toPgliteParam(v: unknown): unknown {
  return v === undefined ? null : v;
}

export class PglitePool extends EventEmitter {
  constructor(private readonly host: PgliteHost) {
    super();
  }

  connect(cb?: (err: Error | null, client?: PgliteClient, release?: (err?: unknown) => void) => void): Promise<PgliteClient> {
    const p = this.host.lock.acquire().then((release) => {
      if (this.host.isClosed) {
        release();
        throw new Error('The embedded database is closed');
      }
      const client = new PgliteClient(this.host);
      const done = () => release();
      (client as PgliteClient & { release: () => void }).release = done;
      return { client, done };
    });
    const leased = p.then(({ client }) => client);
    if (cb) {
      p.then(
        ({ client, done }) => cb(null, client, done),
        (e: Error) => cb(e),
      );
      // Like node-postgres, a caller with a callback (TypeORM) gets the error there
      // only: the unused promise must not become an unhandled rejection.
      leased.catch(() => undefined);
    }
    return leased;
  }

  async query(sql: string, params?: unknown[]): Promise<PgLikeResult> {
    const client = await this.connect();
    try {
      return await client.query(sql, params);
    } finally {
      (client as PgliteClient & { release: () => void }).release();
    }
  }

  end(cb?: (err?: Error | null) => void): Promise<void> {
    // The host outlives a DataSource: other services share it. Closing happens in PgliteHost.close().
    cb?.(null);
    return Promise.resolve();
  }
}
