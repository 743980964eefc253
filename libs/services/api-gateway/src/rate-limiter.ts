import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';

/**
 * A fixed window of N requests per minute per caller (tenant and principal),
 * kept in this gateway replica's memory: with R replicas behind a balancer a
 * caller gets up to R×N. Headers follow the IETF RateLimit fields draft.
 */
export class CallerRateLimiter {
  private readonly limiter?: RateLimiterMemory;

  constructor(private readonly perMinute: number) {
    if (perMinute > 0) this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  }

  /** Counts one request; returns the headers to send, or throws 429 with Retry-After. */
  async consume(principal: Principal): Promise<Record<string, string>> {
    if (!this.limiter) return {};
    const key = `${principal.tenantId}\u0000${principal.id}`;
    try {
      const res = await this.limiter.consume(key);
      return this.headers(res);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw new ProblemError('RATE_LIMITED', `More than ${this.perMinute} requests in a minute; retry in ${retryAfter} s.`, undefined, {}, { 'Retry-After': retryAfter, ...this.headers(rejection) });
    }
  }

  private headers(res: RateLimiterRes): Record<string, string> {
    return {
      'RateLimit-Limit': String(this.perMinute),
      'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
      'RateLimit-Reset': String(Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}
