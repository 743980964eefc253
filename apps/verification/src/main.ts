import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { verificationService } from '@dsar/services/verification';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(verificationService, loadConfig('verification', configSchema));
}

main().catch(exitOnStartupFailure('verification'));
