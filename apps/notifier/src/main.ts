import 'reflect-metadata';
import { loadConfig, upstreamUrlsFrom } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { notifierServiceWith, notifierSettingsFrom } from '@dsar/services/notifier';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('notifier', configSchema);
  const service = notifierServiceWith(notifierSettingsFrom(config));
  await runService(service, config, { upstreams: upstreamUrlsFrom(config, service.calls ?? []) });
}

main().catch(exitOnStartupFailure('notifier'));
