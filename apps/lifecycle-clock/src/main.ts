import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { retentionSettingsFrom } from '@dsar/platform/retention';
import { deadlineMonitorSettingsFrom, identityIndexSettingsFrom, lifecycleClockServiceWith } from '@dsar/services/lifecycle-clock';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('lifecycle-clock', configSchema);
  await runService(lifecycleClockServiceWith(deadlineMonitorSettingsFrom(config), retentionSettingsFrom(config), identityIndexSettingsFrom(config)), config);
}

main().catch(exitOnStartupFailure('lifecycle-clock'));
