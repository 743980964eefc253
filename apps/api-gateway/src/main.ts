import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, gatewayHostConfig, runService } from '@dsar/platform/host';
import { apiGatewayService, gatewaySettingsFrom, UPSTREAM_SERVICES } from '@dsar/services/api-gateway';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('api-gateway', configSchema);
  await runService(apiGatewayService(upstreamUrlsFrom(config, UPSTREAM_SERVICES), gatewaySettingsFrom(config)), gatewayHostConfig(config));
}

main().catch(exitOnStartupFailure('api-gateway'));
