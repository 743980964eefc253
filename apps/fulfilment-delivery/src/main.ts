import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { StorageModule } from '@dsar/platform/storage';
import { retentionSettingsFrom } from '@dsar/platform/retention';
import { dataSystemSettingsProvider, deliverySettingsProvider, fulfilmentDeliveryServiceWith, fulfilmentSettingsProviders } from '@dsar/services/fulfilment-delivery';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('fulfilment-delivery', configSchema);
  const service = fulfilmentDeliveryServiceWith(
    [...fulfilmentSettingsProviders(config), deliverySettingsProvider(config), dataSystemSettingsProvider(config)],
    StorageModule.forRoot({ config }),
    retentionSettingsFrom(config),
  );
  await runService(service, config, { upstreams: upstreamUrlsFrom(config, service.calls ?? []) });
}

main().catch(exitOnStartupFailure('fulfilment-delivery'));
