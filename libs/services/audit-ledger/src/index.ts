import type { ServiceDefinition } from '@dsar/platform/host';
import { retentionMigrations, RetentionRuleEntity, type RetentionSettings, retentionSettingsFrom } from '@dsar/platform/retention';
import type { CheckpointSettings } from './application/checkpoint-publisher';
import { AuditLedgerModule } from './audit-ledger.module';
import { checkpointSettingsFrom } from './audit-settings';
import { LedgerEvents1763700000200 } from './infrastructure/migrations/1763700000200-ledger-events';
import { AuditChain1763700000210 } from './infrastructure/migrations/1763700000210-audit-chain';
import { AuditPayloadText1763700000220 } from './infrastructure/migrations/1763700000220-audit-payload-text';

export { AuditLedgerModule } from './audit-ledger.module';
export { Ledger, type ChainView } from './application/ledger';
export { CheckpointPublisher, type CheckpointSettings } from './application/checkpoint-publisher';
export { ChainVerification } from './application/chain-verification';
export { ChainExport } from './application/chain-export';
export { type AuditConfig, auditFields, checkpointSettingsFrom, ensureDevSigningKey, newSigningKeyPem } from './audit-settings';

/** audit-ledger with signed checkpoints and its retention sweep on the given settings (the app and the embedded runner pass their configuration). */
export function auditLedgerServiceWith(checkpoints: CheckpointSettings, retention: RetentionSettings = retentionSettingsFrom({})): ServiceDefinition {
  return {
    name: 'audit-ledger',
    module: AuditLedgerModule.withCheckpoints(checkpoints, retention),
    persistence: true,
    entities: [RetentionRuleEntity],
    migrations: [...retentionMigrations, LedgerEvents1763700000200, AuditChain1763700000210, AuditPayloadText1763700000220],
  };
}

/** audit-ledger keeps a hash chain of every domain event of every request. This definition makes no checkpoints. */
export const auditLedgerService: ServiceDefinition = auditLedgerServiceWith(checkpointSettingsFrom({}));
