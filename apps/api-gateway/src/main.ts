import 'reflect-metadata';
import { loadConfig, upstreamUrlVariable } from '@dsar/platform/config';
import { exitOnStartupFailure, gatewayHostConfig, runService } from '@dsar/platform/host';
import { apiGatewayService, UPSTREAM_SERVICES } from '@dsar/services/api-gateway';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('api-gateway', configSchema);
  const upstreams = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, String((config as Record<string, unknown>)[upstreamUrlVariable(s)])]));
  await runService(apiGatewayService(upstreams), gatewayHostConfig(config));
}

main().catch(exitOnStartupFailure('api-gateway'));
