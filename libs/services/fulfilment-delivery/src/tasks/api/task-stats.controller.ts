import { Controller, Get } from '@nestjs/common';
import type { Principal, TaskStats as TaskStatsView } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { CurrentPrincipal, scopeOf } from '@dsar/platform/http';
import { TaskStats } from '../application/task-stats';
import { taskStatsOf } from '../application/task-stats-view';

/** The figures of the caller's data-system tasks (the gateway exposes them as GET /api/v1/stats/tasks). */
@Controller('internal/v1/stats')
export class TaskStatsController {
  constructor(
    private readonly stats: TaskStats,
    private readonly clock: Clock,
  ) {}

  @Get('tasks')
  async tasks(@CurrentPrincipal() principal: Principal): Promise<TaskStatsView> {
    const now = this.clock.now();
    return taskStatsOf(await this.stats.count(scopeOf(principal), now), now);
  }
}
