import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import type { Principal } from '@dsar/contracts';
import { CurrentPrincipal } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { NotificationHistoryService } from '../application/notification-history';

/** The notifier's internal API; the gateway exposes it under /api/v1/requests/:id/notifications. */
@Controller('internal/v1/requests/:id/notifications')
export class NotificationsController {
  constructor(private readonly history: NotificationHistoryService) {}

  @Get()
  list(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.history.history(principal, id);
  }

  @Post(':eventId/replay')
  @HttpCode(202)
  @Idempotent({ ownTransactions: true })
  replay(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('eventId') eventId: string) {
    return this.history.replay(principal, id, eventId);
  }
}
