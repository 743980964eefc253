import { type DynamicModule, Module } from '@nestjs/common';
import { AuditController } from './api/audit.controller';
import { CheckpointsController } from './api/checkpoints.controller';
import { TimelineController } from './api/timeline.controller';
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
  /** The module with its checkpoint publisher, on the given settings. */
  static withCheckpoints(settings: CheckpointSettings): DynamicModule {
    return {
      module: AuditLedgerModule,
      providers: [{ provide: CHECKPOINT_SETTINGS, useValue: settings }, CheckpointPublisher],
      exports: [CheckpointPublisher],
    };
  }
}
