import { Controller, Get, Headers, Param } from '@nestjs/common';
import { AWAIT_EVENT_HEADER, type Principal, type Timeline, publicEventType } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal } from '@dsar/platform/http';
import { Ledger } from '../application/ledger';

@Controller('internal/v1/requests')
export class TimelineController {
  constructor(private readonly ledger: Ledger) {}

  /** Every domain event of the request, oldest first: the entries of its audit chain. */
  @Get(':id/timeline')
  async timeline(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Headers(AWAIT_EVENT_HEADER) awaitEvent?: string): Promise<Timeline> {
    await this.ledger.catchUp(principal.tenantId, awaitEvent);
    const events = await this.ledger.eventsOf(principal.tenantId, id);
    if (events.length === 0) throw new ProblemError('RESOURCE_NOT_FOUND', `No request ${id}.`);
    return {
      requestId: id,
      events: events.map((e) => ({ id: e.eventId, eventType: publicEventType(e.eventType), createdAt: e.occurredAt, payload: e.payload })),
    };
  }
}
