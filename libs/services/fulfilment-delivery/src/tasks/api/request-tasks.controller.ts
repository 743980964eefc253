import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { type Principal, taskCompleteCommand, taskRetryCommand, taskSkipCommand } from '@dsar/contracts';
import { CurrentPrincipal, parseInput, scopeOf } from '@dsar/platform/http';
import { Idempotent } from '@dsar/platform/idempotency';
import { Tasks } from '../application/tasks';

/**
 * A request's data-system tasks for operators (the gateway exposes it under /api/v1/requests/{id}/tasks, having
 * checked the request's tenant and workspace): the list, and retry, skip or complete by hand, each audited.
 */
@Controller('internal/v1/requests/:id/tasks')
export class RequestTasksController {
  constructor(private readonly tasks: Tasks) {}

  @Get()
  list(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    // The gateway has checked the request's tenant and workspace; a caller confined to a workspace still sees only its own.
    return this.tasks.forRequest(scopeOf(principal), id);
  }

  @Post(':taskId/retry')
  @HttpCode(202)
  @Idempotent()
  retry(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('taskId') taskId: string, @Body() body: unknown) {
    return this.tasks.retry(principal, id, taskId, parseInput(taskRetryCommand, body ?? {}));
  }

  @Post(':taskId/skip')
  @HttpCode(202)
  @Idempotent()
  skip(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('taskId') taskId: string, @Body() body: unknown) {
    return this.tasks.skip(principal, id, taskId, parseInput(taskSkipCommand, body));
  }

  @Post(':taskId/complete')
  @HttpCode(202)
  @Idempotent()
  complete(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Param('taskId') taskId: string, @Body() body: unknown) {
    return this.tasks.complete(principal, id, taskId, parseInput(taskCompleteCommand, body));
  }
}
