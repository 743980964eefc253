import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { fulfilmentDeliveryService } from '@dsar/services/fulfilment-delivery';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(fulfilmentDeliveryService, loadConfig('fulfilment-delivery', configSchema));
}

main().catch(exitOnStartupFailure('fulfilment-delivery'));
