import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { extensionCommand, pauseCommand, type Principal, resumeCommand } from '@dsar/contracts';
import { CurrentPrincipal, optionalBody, parseInput, scopeOf } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { RequestClock } from '../application/request-clock';

/** lifecycle-clock's internal API for a request's legal clock (public under /api/v1/requests/:id/...). */
@Controller('internal/v1/requests/:id')
export class ClockController {
  constructor(private readonly clock: RequestClock) {}

  @Get('clock/explain')
  explain(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.clock.explain(scopeOf(principal), id);
  }

  @Post('extensions')
  @HttpCode(202)
  @Idempotent()
  extend(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.clock.extend(principal, id, parseInput(extensionCommand, optionalBody(body)));
  }

  @Post('clock/pauses')
  @HttpCode(202)
  @Idempotent()
  pause(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.clock.pause(principal, id, parseInput(pauseCommand, body));
  }

  @Post('clock/resume')
  @HttpCode(202)
  @Idempotent()
  resume(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    return this.clock.resume(principal, id, parseInput(resumeCommand, optionalBody(body)));
  }
}
