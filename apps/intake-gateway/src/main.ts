import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { intakeGatewayService } from '@dsar/services/intake-gateway';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('intake-gateway', configSchema);
  await runService(intakeGatewayService, config, { upstreams: upstreamUrlsFrom(config, intakeGatewayService.calls ?? []) });
}

main().catch(exitOnStartupFailure('intake-gateway'));
