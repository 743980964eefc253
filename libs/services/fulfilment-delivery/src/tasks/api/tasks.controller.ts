import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { type Principal, pendingTasksQuery, TASK_TOKEN_HEADER, taskAnswer, taskClaimCommand, taskHeartbeatCommand } from '@dsar/contracts';
import { parseInput, TenantWidePrincipal } from '@dsar/platform/http';
import { Tasks } from '../application/tasks';

/** What the tenant-wide task routes are, for the refusal of a caller confined to one workspace. */
const TASKS = 'Data-system tasks';

/**
 * The connector's side of the tasks (the gateway exposes it under /api/v1/data-systems/{key}/tasks and
 * /api/v1/tasks/{id}/…): list, claim, heartbeat and answer. None is @Idempotent: a claim's answer carries a token
 * that must never be recorded for a replay, and a heartbeat or an answer is idempotent by its token.
 */
@Controller('internal/v1')
export class TasksController {
  constructor(private readonly tasks: Tasks) {}

  @Get('data-systems/:systemKey/tasks')
  pending(@TenantWidePrincipal(TASKS) principal: Principal, @Param('systemKey') systemKey: string, @Query() query: unknown) {
    return this.tasks.pending(principal.tenantId, systemKey, parseInput(pendingTasksQuery, query, 'query').limit);
  }

  @Post('tasks/:taskId/claim')
  @HttpCode(200)
  claim(@TenantWidePrincipal(TASKS) principal: Principal, @Param('taskId') taskId: string, @Body() body: unknown) {
    return this.tasks.claim(principal, taskId, parseInput(taskClaimCommand, body));
  }

  @Post('tasks/:taskId/heartbeat')
  @HttpCode(200)
  heartbeat(@TenantWidePrincipal(TASKS) principal: Principal, @Param('taskId') taskId: string, @Headers(TASK_TOKEN_HEADER) token: string | undefined, @Body() body: unknown) {
    return this.tasks.heartbeat(principal, taskId, token, parseInput(taskHeartbeatCommand, body ?? {}));
  }

  @Post('tasks/:taskId/answer')
  @HttpCode(200)
  answer(@TenantWidePrincipal(TASKS) principal: Principal, @Param('taskId') taskId: string, @Headers(TASK_TOKEN_HEADER) token: string | undefined, @Body() body: unknown) {
    return this.tasks.answer(principal, taskId, token, parseInput(taskAnswer, body));
  }
}
