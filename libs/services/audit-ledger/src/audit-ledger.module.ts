import { Module } from '@nestjs/common';
import { TimelineController } from './api/timeline.controller';
import { Ledger } from './application/ledger';
import { RequestEventsHandler } from './events/request-events.handler';

@Module({ controllers: [RequestEventsHandler, TimelineController], providers: [Ledger], exports: [Ledger] })
export class AuditLedgerModule {}
