import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { StorageModule } from '@dsar/platform/storage';
import { verificationServiceWith, verificationSettingsFrom } from '@dsar/services/verification';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('verification', configSchema);
  const service = verificationServiceWith(verificationSettingsFrom(config), StorageModule.forRoot({ config }));
  await runService(service, config, { upstreams: upstreamUrlsFrom(config, service.calls ?? []) });
}

main().catch(exitOnStartupFailure('verification'));
