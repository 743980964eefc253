import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { policyRegistryService } from '@dsar/services/policy-registry';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(policyRegistryService, loadConfig('policy-registry', configSchema));
}

main().catch(exitOnStartupFailure('policy-registry'));
