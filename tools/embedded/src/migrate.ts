import 'reflect-metadata';
import { z } from 'zod';
import { databaseFields, loadConfig } from '@dsar/platform/config';
import { serviceMigrations } from '@dsar/platform/host';
import { dataSourceOptions, openDataSource, PgliteHost, schemaNameFor } from '@dsar/platform/persistence';
import { DOMAIN_SERVICES } from './system';

/**
 * `npm run migrate`: applies the pending migrations of every service, each in
 * its own schema. Distributed mode runs this explicitly (a Helm hook does it
 * on install and upgrade); the services themselves refuse to start while a
 * migration is pending.
 */
const schema = z.object({
  DB_DRIVER: databaseFields.DB_DRIVER.default('postgres'),
  DATABASE_URL: databaseFields.DATABASE_URL,
  DATA_DIR: databaseFields.DATA_DIR,
});

async function main(): Promise<void> {
  const config = loadConfig('migrate', schema);
  for (const service of DOMAIN_SERVICES.filter((s) => s.persistence)) {
    const name = schemaNameFor(service.name);
    const options = await dataSourceOptions({
      driver: config.DB_DRIVER,
      url: config.DATABASE_URL,
      dataDir: config.DATA_DIR,
      poolSize: 1,
      schema: name,
      entities: service.entities ?? [],
      migrations: serviceMigrations(service),
      applicationName: 'dsar-migrate',
    });
    const ds = await openDataSource(options, 'run');
    const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM "${name}".schema_migrations`);
    process.stdout.write(`${service.name}: schema ${name} up to date (${count} migrations applied)\n`);
    await ds.destroy();
  }
  // An embedded database outlives its DataSources (the services share it): closed here, or the process never ends.
  if (config.DB_DRIVER === 'pglite') await PgliteHost.closeAll();
}

main().catch((e) => {
  process.stderr.write(`migrate failed: ${(e as Error).message}\n`);
  process.exit(1);
});
