import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { intakeGatewayServiceWith, webhookSettingsFrom } from '@dsar/services/intake-gateway';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('intake-gateway', configSchema);
  const service = intakeGatewayServiceWith(webhookSettingsFrom(config));
  await runService(service, config, { upstreams: upstreamUrlsFrom(config, service.calls ?? []) });
}

main().catch(exitOnStartupFailure('intake-gateway'));
