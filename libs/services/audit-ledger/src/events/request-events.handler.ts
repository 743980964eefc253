import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, lifecycleEventDefinitions, requestEventDefinitions } from '@dsar/contracts';
import { Ledger } from '../application/ledger';

/** Every event type of the request topic: creation, the clock, every workflow step, the deadline monitor. */
const REQUEST_TOPIC_TYPES = [...requestEventDefinitions, ...lifecycleEventDefinitions].map((d) => d.type);

/** Feeds the ledger from the request topic: every fact about a request lands on its timeline. */
@Controller()
export class RequestEventsHandler {
  constructor(private readonly ledger: Ledger) {}

  @EventPattern(REQUEST_TOPIC_TYPES)
  async onRequestEvent(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.ledger.append(event);
  }
}
