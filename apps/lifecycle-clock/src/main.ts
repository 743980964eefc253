import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { lifecycleClockService } from '@dsar/services/lifecycle-clock';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(lifecycleClockService, loadConfig('lifecycle-clock', configSchema));
}

main().catch(exitOnStartupFailure('lifecycle-clock'));
