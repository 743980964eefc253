import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { type CloudEventEnvelope, RequestEventTypes } from '@dsar/contracts';
import { Ledger } from '../application/ledger';

/** Feeds the ledger from the request topic: every fact about a request lands on its timeline. */
@Controller()
export class RequestEventsHandler {
  constructor(private readonly ledger: Ledger) {}

  @EventPattern(RequestEventTypes.created)
  async onRequestCreated(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.ledger.append(event);
  }

  @EventPattern(RequestEventTypes.deadlineExtended)
  async onDeadlineExtended(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.ledger.append(event);
  }

  @EventPattern(RequestEventTypes.clockPaused)
  async onClockPaused(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.ledger.append(event);
  }

  @EventPattern(RequestEventTypes.clockResumed)
  async onClockResumed(@Payload() event: CloudEventEnvelope): Promise<void> {
    await this.ledger.append(event);
  }
}
