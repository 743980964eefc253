import { Injectable } from '@nestjs/common';
import type { CloudEventEnvelope } from '@dsar/contracts';
import { UnitOfWork } from '@dsar/platform/persistence';
import { LedgerEventEntity } from '../infrastructure/ledger-event.entity';

/** The audit ledger's record of every domain event, per request. */
@Injectable()
export class Ledger {
  constructor(private readonly uow: UnitOfWork) {}

  /** Appends an event; runs inside the consumer's unit of work, beside its inbox row. */
  async append(event: CloudEventEnvelope): Promise<void> {
    await this.uow.run(async (tx) => {
      await tx.save(
        tx.create(LedgerEventEntity, {
        tenantId: event.tenantid,
        requestId: event.subject,
        eventId: event.id,
        eventType: event.type,
        source: event.source,
        occurredAt: new Date(event.time),
          payload: event.data,
        }),
      );
    });
  }

  async eventsOf(tenantId: string, requestId: string): Promise<LedgerEventEntity[]> {
    return this.uow.dataSource.getRepository(LedgerEventEntity).find({ where: { tenantId, requestId }, order: { id: 'ASC' } });
  }
}
