import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure } from '@dsar/platform/host';
import { embeddedConfigSchema } from './config';
import { startSystem } from './system';

/** `npm start`: the whole product in one process. */
async function main(): Promise<void> {
  const config = loadConfig('dsar (embedded)', embeddedConfigSchema);
  const system = await startSystem(config);
  process.stdout.write(
    `DSAR service running in embedded mode on ${system.gatewayUrl} ` +
      `(database: ${config.DB_DRIVER}${config.DB_DRIVER === 'pglite' ? ` in ${config.DATA_DIR}` : ''}, bus: ${config.BUS_DRIVER})\n` +
      `API: ${system.gatewayUrl}/api/v1  reference: ${system.gatewayUrl}/api/docs\n`,
  );
  if (system.devToken) {
    // Printed once per start, never logged: the log may be shipped elsewhere.
    process.stdout.write(
      `No authentication configured: development admin key for tenant "default"${system.devToken.path ? ` (also in ${system.devToken.path})` : ''}:\n` +
        `  Authorization: Bearer ${system.devToken.token}\n`,
    );
  }
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

main().catch(exitOnStartupFailure('dsar'));
