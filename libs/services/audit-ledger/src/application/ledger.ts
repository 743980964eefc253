import { Injectable } from '@nestjs/common';
import { type CloudEventEnvelope, isUuid } from '@dsar/contracts';
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
    if (!isUuid(requestId)) return [];
    return this.uow.dataSource.getRepository(LedgerEventEntity).find({ where: { tenantId, requestId }, order: { id: 'ASC' } });
  }

  /** Waits, up to a bound, until the ledger holds an event; true when it does. */
  async waitForEvent(tenantId: string, eventId: string, timeoutMs: number): Promise<boolean> {
    if (!isUuid(eventId)) return false;
    const repo = this.uow.dataSource.getRepository(LedgerEventEntity);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await repo.existsBy({ tenantId, eventId })) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
