import { Controller, Get, Headers, Param } from '@nestjs/common';
import { AWAIT_EVENT_HEADER, type Principal, type Timeline, timelineEventType } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { CurrentPrincipal } from '@dsar/platform/http';
import { Ledger } from '../application/ledger';

/** How long a read waits for that event before answering with what the ledger has. */
const AWAIT_EVENT_MS = 3000;

@Controller('internal/v1/requests')
export class TimelineController {
  constructor(private readonly ledger: Ledger) {}

  /** Every domain event of the request, oldest first: the entries of its audit chain. */
  @Get(':id/timeline')
  async timeline(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Headers(AWAIT_EVENT_HEADER) awaitEvent?: string): Promise<Timeline> {
    if (awaitEvent) await this.ledger.waitForEvent(principal.tenantId, awaitEvent, AWAIT_EVENT_MS);
    const events = await this.ledger.eventsOf(principal.tenantId, id);
    if (events.length === 0) throw new ProblemError('RESOURCE_NOT_FOUND', `No request ${id}.`);
    return {
      requestId: id,
      events: events.map((e) => ({ id: e.eventId, eventType: timelineEventType(e.eventType), createdAt: e.occurredAt, payload: e.payload })),
    };
  }
}
