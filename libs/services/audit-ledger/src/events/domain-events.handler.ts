import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, domainEventCatalog, Topics } from '@dsar/contracts';
import { EVENTS_TOGETHER } from '@dsar/platform/messaging';
import { Ledger } from '../application/ledger';

/**
 * Every domain event type of every topic but the ledger's own: its signed
 * checkpoints describe the chains and are not part of them.
 */
export const CHAINED_EVENT_TYPES = domainEventCatalog()
  .types()
  .filter((d) => d.topic !== Topics.audit)
  .map((d) => d.type);

/**
 * Feeds the chains: each event lands on its request's chain (the CloudEvents subject), once. The events of a batch come
 * together (EVENTS_TOGETHER), so that their chains are opened at once (ADR 0049).
 */
@Controller()
export class DomainEventsHandler {
  constructor(private readonly ledger: Ledger) {}

  @EventPattern(CHAINED_EVENT_TYPES, EVENTS_TOGETHER)
  async onDomainEvents(@Payload() events: CloudEventEnvelope[]): Promise<void> {
    await this.ledger.appendAll(events);
  }
}
