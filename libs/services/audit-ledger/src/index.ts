import type { ServiceDefinition } from '@dsar/platform/host';
import { AuditLedgerModule } from './audit-ledger.module';
import { LedgerEventEntity } from './infrastructure/ledger-event.entity';
import { LedgerEvents1763700000200 } from './infrastructure/migrations/1763700000200-ledger-events';

export { AuditLedgerModule } from './audit-ledger.module';
export { Ledger } from './application/ledger';
export { LedgerEventEntity } from './infrastructure/ledger-event.entity';

/** audit-ledger keeps the record of every domain event of every request. */
export const auditLedgerService: ServiceDefinition = {
  name: 'audit-ledger',
  module: AuditLedgerModule,
  persistence: true,
  entities: [LedgerEventEntity],
  migrations: [LedgerEvents1763700000200],
};
