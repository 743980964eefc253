import { Controller, Get, Query } from '@nestjs/common';
import { type Principal, type RequestStats as RequestStatsView, requestStatsQuery } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { CurrentPrincipal, parseInput, scopeOf } from '@dsar/platform/http';
import { RequestStats } from '../application/request-stats';
import { statsWindowsOf } from '../domain/request-windows';
import { requestStatsOf } from './stats-view';

/** lifecycle-clock's figures of the caller's requests (the gateway exposes them as GET /api/v1/stats/requests). */
@Controller('internal/v1/stats')
export class StatsController {
  constructor(
    private readonly stats: RequestStats,
    private readonly clock: Clock,
  ) {}

  @Get('requests')
  async requests(@CurrentPrincipal() principal: Principal, @Query() rawQuery: Record<string, unknown>): Promise<RequestStatsView> {
    const query = parseInput(requestStatsQuery, rawQuery, 'query');
    const windows = statsWindowsOf(this.clock.now(), query.windowDays);
    return requestStatsOf(await this.stats.count(scopeOf(principal), windows), windows);
  }
}
