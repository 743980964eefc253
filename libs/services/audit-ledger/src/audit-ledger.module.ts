import { type DynamicModule, Module } from '@nestjs/common';
import { type RetentionSettings, retentionParts } from '@dsar/platform/retention';
import { AuditController } from './api/audit.controller';
import { CheckpointsController } from './api/checkpoints.controller';
import { TimelineController } from './api/timeline.controller';
import { AuditEventPurger } from './application/audit-event-purger';
import { ChainExport } from './application/chain-export';
import { ChainVerification } from './application/chain-verification';
import { CHECKPOINT_SETTINGS, CheckpointPublisher, type CheckpointSettings } from './application/checkpoint-publisher';
import { Ledger } from './application/ledger';
import { DomainEventsHandler } from './events/domain-events.handler';

@Module({
  controllers: [DomainEventsHandler, TimelineController, AuditController, CheckpointsController],
  providers: [Ledger, ChainExport, ChainVerification],
  exports: [Ledger],
})
export class AuditLedgerModule {
  /** The module with its checkpoint publisher and its retention sweep (`audit_event`), on the given settings. */
  static withCheckpoints(settings: CheckpointSettings, retention: RetentionSettings): DynamicModule {
    const parts = retentionParts([AuditEventPurger], retention);
    return {
      module: AuditLedgerModule,
      controllers: parts.controllers,
      providers: [{ provide: CHECKPOINT_SETTINGS, useValue: settings }, CheckpointPublisher, ...parts.providers],
      exports: [CheckpointPublisher],
    };
  }
}
