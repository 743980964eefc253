import { Module } from '@nestjs/common';
import { Ledger } from './application/ledger';
import { RequestEventsHandler } from './events/request-events.handler';

@Module({ controllers: [RequestEventsHandler], providers: [Ledger], exports: [Ledger] })
export class AuditLedgerModule {}
