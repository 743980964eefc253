import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { intakeGatewayService } from '@dsar/services/intake-gateway';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(intakeGatewayService, loadConfig('intake-gateway', configSchema));
}

main().catch(exitOnStartupFailure('intake-gateway'));
