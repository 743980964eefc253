import 'reflect-metadata';
import { loadConfig } from '@dsar/platform/config';
import { exitOnStartupFailure, runService } from '@dsar/platform/host';
import { auditLedgerService } from '@dsar/services/audit-ledger';
import { configSchema } from './config';

async function main(): Promise<void> {
  await runService(auditLedgerService, loadConfig('audit-ledger', configSchema));
}

main().catch(exitOnStartupFailure('audit-ledger'));
