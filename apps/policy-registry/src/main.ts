import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { policyAdminSettingsProvider, policyRegistryServiceWith } from '@dsar/services/policy-registry';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('policy-registry', configSchema);
  const service = policyRegistryServiceWith(policyAdminSettingsProvider(config));
  await runService(service, config, { upstreams: upstreamUrlsFrom(config, service.calls ?? []) });
}

main().catch(exitOnStartupFailure('policy-registry'));
