import type { DynamicModule } from '@nestjs/common';
import type { ServiceDefinition } from '@dsar/platform/host';
import { retentionMigrations, RetentionRuleEntity } from '@dsar/platform/retention';
import { NO_MASTER_KEY, StorageModule, UnavailableStorage } from '@dsar/platform/storage';
import { EvidenceEntity } from './infrastructure/evidence.entity';
import { EvidenceFileEntity } from './infrastructure/evidence-file.entity';
import { Verification1763700000300 } from './infrastructure/migrations/1763700000300-verification';
import { ReminderClaimEntity } from './infrastructure/reminder-claim.entity';
import { VerificationCaseEntity } from './infrastructure/verification-case.entity';
import { VerificationModule } from './verification.module';
import { type VerificationSettings, verificationSettingsFrom } from './verification-settings';

export { VerificationModule } from './verification.module';
export { VerificationCases } from './application/verification-cases';
export { VerificationEvidence } from './application/verification-evidence';
export { VerificationMonitor } from './application/verification-monitor';
export { type VerificationConfig, verificationFields, verificationSettingsFrom, type VerificationSettings } from './verification-settings';

/** verification runs identity verification cases, on the given settings and storage module (the app and the embedded runner pass their configuration). */
export function verificationServiceWith(settings: VerificationSettings, storage: DynamicModule): ServiceDefinition {
  return {
    name: 'verification',
    module: VerificationModule.with(settings, storage),
    persistence: true,
    entities: [VerificationCaseEntity, EvidenceEntity, EvidenceFileEntity, ReminderClaimEntity, RetentionRuleEntity],
    migrations: [...retentionMigrations, Verification1763700000300],
    calls: ['lifecycle-clock'],
    // Evidence uploads are read by their handler as a stream; JSON commands are parsed by the host as usual.
    takesUploads: true,
  };
}

/** verification with its sweep off and no storage (every upload answers 503): the definition for migrations and tooling. */
export const verificationService: ServiceDefinition = verificationServiceWith(verificationSettingsFrom({}), StorageModule.forRoot({ storage: new UnavailableStorage(NO_MASTER_KEY) }));
