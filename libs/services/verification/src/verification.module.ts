import { type DynamicModule, Module } from '@nestjs/common';
import { LifecycleClient } from '@dsar/platform/http';
import { RequestClosures, retentionParts } from '@dsar/platform/retention';
import { VerificationController } from './api/verification.controller';
import { EvidencePurger } from './application/evidence-purger';
import { VerificationCases } from './application/verification-cases';
import { VerificationEvidence } from './application/verification-evidence';
import { VerificationMonitor } from './application/verification-monitor';
import { RequestOutcomeHandler } from './events/request-outcome.handler';
import { VERIFICATION_SETTINGS, type VerificationSettings } from './verification-settings';

/** The verification service: cases, evidence and its encrypted files, decisions, reminders and expiry. */
@Module({})
export class VerificationModule {
  /** The module on its settings, with the storage module that provides FileStorage. */
  static with(settings: VerificationSettings, storage: DynamicModule): DynamicModule {
    const retention = retentionParts([EvidencePurger], settings.retention);
    return {
      module: VerificationModule,
      imports: [storage],
      controllers: [VerificationController, RequestOutcomeHandler, ...retention.controllers],
      providers: [{ provide: VERIFICATION_SETTINGS, useValue: settings }, LifecycleClient, VerificationCases, VerificationEvidence, VerificationMonitor, RequestClosures, ...retention.providers],
      exports: [VerificationCases, VerificationEvidence, VerificationMonitor],
    };
  }
}
