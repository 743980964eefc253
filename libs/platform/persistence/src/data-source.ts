import * as pg from 'pg';
import { DataSource, type DataSourceOptions, type QueryRunner } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { PgliteHost, pgliteDirectory } from './pglite-driver';

// Calendar dates stay 'YYYY-MM-DD' strings on both drivers: a DATE has no time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v: string) => v);

/* eslint-disable @typescript-eslint/no-unsafe-function-type -- TypeORM lists entities and migrations as classes */
export interface DatabaseSettings {
  driver: 'postgres' | 'pglite';
  /** Required for postgres. */
  url?: string;
  /** Where PGlite keeps its files (a `pg` folder is made inside). `memory://<name>` keeps nothing. */
  dataDir: string;
  poolSize: number;
  /** The service's own PostgreSQL schema: every table of the service lives there. */
  schema: string;
  entities: Function[];
  migrations: Function[];
  applicationName: string;
}
/* eslint-enable @typescript-eslint/no-unsafe-function-type */

export type MigrationPolicy = 'run' | 'check';

export async function dataSourceOptions(settings: DatabaseSettings): Promise<DataSourceOptions> {
  const common = {
    type: 'postgres' as const,
    schema: settings.schema,
    entities: settings.entities,
    migrations: settings.migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    migrationsRun: false,
    applicationName: settings.applicationName,
  };
  if (settings.driver === 'pglite') {
    const host = await PgliteHost.open(pgliteDirectory(settings.dataDir));
    return { ...common, driver: host.pgModule(), poolSize: 1 } satisfies PostgresConnectionOptions;
  }
  if (!settings.url) throw new Error('DATABASE_URL is required for the postgres driver');
  return { ...common, url: settings.url, poolSize: settings.poolSize } satisfies PostgresConnectionOptions;
}

export class PendingMigrationsError extends Error {
  constructor(schema: string) {
    super(`Schema "${schema}" has migrations that are not applied. Run \`npm run migrate\` ` + '(or start with DB_MIGRATIONS=run) before starting the service.');
    this.name = 'PendingMigrationsError';
  }
}

/**
 * Opens a service's DataSource: creates its schema if needed, then applies or
 * checks the migrations. Never `synchronize`: the schema changes only through
 * reviewed migrations.
 */
export async function openDataSource(options: DataSourceOptions, policy: MigrationPolicy): Promise<DataSource> {
  const ds = new DataSource(options);
  await ds.initialize();
  try {
    await requireReadCommittedDefault(ds);
    const schema = schemaOfOptions(options);
    if (policy === 'run') {
      await ds.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await ds.runMigrations({ transaction: 'each' });
    } else if (await hasPendingMigrations(ds, schema)) {
      throw new PendingMigrationsError(schema);
    }
    return ds;
  } catch (e) {
    await ds.destroy();
    throw e;
  }
}

/**
 * A unit of work in READ COMMITTED starts its transaction without naming the level (one round trip less per
 * transaction, UnitOfWork's DEFAULT_ISOLATION): the database's default must be it, as PostgreSQL's is unless an
 * operator changed `default_transaction_isolation` for the server, the database or the role.
 */
async function requireReadCommittedDefault(ds: DataSource): Promise<void> {
  const [{ isolation }]: Array<{ isolation: string }> = await ds.query(`SELECT current_setting('default_transaction_isolation') AS isolation`);
  if (isolation !== 'read committed') {
    throw new Error(`The database's default_transaction_isolation is "${isolation}"; the services need PostgreSQL's default, "read committed" (reset it for the database or role).`);
  }
}

async function hasPendingMigrations(ds: DataSource, schema: string): Promise<boolean> {
  const [{ exists }] = await ds.query(`SELECT EXISTS (SELECT 1 FROM information_schema.schemata WHERE schema_name = $1) AS exists`, [schema]);
  return !exists || (await ds.showMigrations());
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Not a safe SQL identifier: ${name}`);
  return `"${name}"`;
}

/** The quoted schema of the DataSource a migration runs in; migrations name their tables with it. */
export function schemaOf(queryRunner: QueryRunner): string {
  return quoteIdent(schemaOfOptions(queryRunner.connection.options));
}

/** The service's schema, quoted for raw SQL: `"audit_ledger"`. */
export function qualifiedSchema(dataSource: DataSource): string {
  return quoteIdent(schemaOfOptions(dataSource.options));
}

/** A table of the service's schema, quoted for raw SQL: `"lifecycle_clock"."requests"`. */
export function qualifiedTable(dataSource: DataSource, table: string): string {
  return `${qualifiedSchema(dataSource)}.${quoteIdent(table)}`;
}

function schemaOfOptions(options: DataSourceOptions): string {
  const schema = (options as PostgresConnectionOptions).schema;
  if (!schema) throw new Error('A service DataSource must name its schema');
  return schema;
}

/** The schema name of a service: `lifecycle-clock` → `lifecycle_clock`. */
export function schemaNameFor(service: string): string {
  return service.replace(/-/g, '_');
}
