import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { retentionSettingsFrom } from '@dsar/platform/retention';
import { auditLedgerServiceWith, checkpointSettingsFrom } from '@dsar/services/audit-ledger';
import { configSchema } from './config';

async function main(): Promise<void> {
  const config = loadConfig('audit-ledger', configSchema);
  await runService(auditLedgerServiceWith(checkpointSettingsFrom(config), retentionSettingsFrom(config)), config);
}

main().catch(exitOnStartupFailure('audit-ledger'));
