import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { notifierService } from '@dsar/services/notifier';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(notifierService, loadConfig('notifier', configSchema));
}

main().catch(exitOnStartupFailure('notifier'));
