import 'reflect-metadata';
import { z } from 'zod';
import { databaseFields, loadConfig } from '@dsar/platform/config';
import { PgliteHost, pgliteDirectory } from '@dsar/platform/persistence/pglite';

/**
 * Starts opening the embedded database before the services' modules load: a new data directory is unpacked from
 * the cached empty cluster by the thread pool meanwhile (the services' migrations wait for it). Settings that do not
 * parse are left to the full configuration below, which reports them.
 */
function openDatabaseEarly(): void {
  const settings = z.object({ DB_DRIVER: databaseFields.DB_DRIVER, DATA_DIR: databaseFields.DATA_DIR }).safeParse(process.env);
  if (settings.success && settings.data.DB_DRIVER === 'pglite') PgliteHost.open(pgliteDirectory(settings.data.DATA_DIR)).catch(() => undefined);
}

/** `npm start`: the whole product in one process. */
async function main(): Promise<void> {
  openDatabaseEarly();
  const [{ embeddedConfigSchema }, { startSystem, tuneHeapGrowth }, { startBanner }] = await Promise.all([import('./config'), import('./system'), import('./banner')]);
  const config = loadConfig('dsar (embedded)', embeddedConfigSchema);
  tuneHeapGrowth(config.HEAP_GROWING_PERCENT);
  const system = await startSystem(config);
  const banner = startBanner(config, system);
  process.stdout.write(banner.text);
  for (const warning of banner.warnings) process.stderr.write(`${warning}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: shutting down\n`);
    system.close().then(
      () => process.exit(0),
      (e) => {
        process.stderr.write(`shutdown failed: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch(async (e: unknown) => (await import('@dsar/platform/host')).exitOnStartupFailure('dsar')(e));
