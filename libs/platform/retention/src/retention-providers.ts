import type { Provider, Type } from '@nestjs/common';
import { RETENTION_PURGERS, type RetentionClassPurger } from './retention-purger';
import { RetentionPolicyHandler } from './retention-policy.handler';
import { RetentionPreviewController } from './retention-preview.controller';
import { RetentionRules } from './retention-rules';
import { RETENTION_SETTINGS, type RetentionSettings } from './retention-settings';
import { RetentionSweeper } from './retention-sweeper';

/**
 * What a service that owns retention classes adds to its module: the copy of
 * the policies kept from events, the sweep over its purgers, and the preview
 * route the retention report reads. The purgers are the service's own
 * providers (they use its repositories and storage).
 */
export function retentionParts(purgers: Type<RetentionClassPurger>[], settings: RetentionSettings): { controllers: Type<unknown>[]; providers: Provider[] } {
  return {
    controllers: [RetentionPolicyHandler, RetentionPreviewController],
    providers: [
      { provide: RETENTION_SETTINGS, useValue: settings },
      RetentionRules,
      RetentionSweeper,
      ...purgers,
      { provide: RETENTION_PURGERS, useFactory: (...instances: RetentionClassPurger[]) => instances, inject: purgers },
    ],
  };
}
