import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { appealByReplyCommand, appealCommand, appealDecisionCommand, type Principal } from '@dsar/contracts';
import { CurrentPrincipal, parseInput, scopeOf } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { RequestAppeals } from '../application/request-appeals';

/** Appeals against a request's outcome (public under /api/v1/requests/:id/appeals). */
@Controller('internal/v1/requests/:id/appeals')
export class AppealsController {
  constructor(private readonly appeals: RequestAppeals) {}

  @Post()
  @HttpCode(202)
  @Idempotent()
  file(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.appeals.file(principal, id, parseInput(appealCommand, body));
  }

  /** Not public: intake-gateway's inbound webhooks, for a reply to a refused request (docs/webhooks.md#appeals-by-reply). */
  @Post('by-reply')
  @HttpCode(202)
  @Idempotent()
  fileByReply(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.appeals.fileByReply(principal, id, parseInput(appealByReplyCommand, body));
  }

  @Get()
  list(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.appeals.list(scopeOf(principal), id);
  }

  @Post(':appealId/decide')
  @HttpCode(202)
  @Idempotent()
  decide(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('appealId') appealId: string, @Body() body: unknown) {
    return this.appeals.decide(principal, id, appealId, parseInput(appealDecisionCommand, body));
  }
}
