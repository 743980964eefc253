import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { policyRegistryService } from '@dsar/services/policy-registry';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('policy-registry', configSchema);
  await runService(policyRegistryService, config, { upstreams: upstreamUrlsFrom(config, policyRegistryService.calls ?? []) });
}

main().catch(exitOnStartupFailure('policy-registry'));
