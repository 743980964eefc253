import { Inject, Injectable, Optional } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { DELIVERY_SETTINGS, type DeliverySettings, deliverySettingsFrom } from '../delivery-settings';

const HOUR_SECONDS = 3_600;

/**
 * How many refused downloads a caller gets per request: DOWNLOAD_REFUSALS_PER_HOUR in a fixed hour that starts
 * with its first refusal. A refusal past the budget is answered 429 and only counted in the delivery log, so
 * a caller trying tokens in a loop cannot grow the request's log and audit chain by one event a try. Kept in
 * this replica's memory: with R replicas of fulfilment-delivery a caller gets up to R × the budget, and a
 * restart starts every budget afresh (the log entries stay bounded either way: repeats only count).
 */
@Injectable()
export class DownloadRefusalBudget {
  readonly perHour: number;
  private readonly limiter: RateLimiterMemory;

  constructor(@Optional() @Inject(DELIVERY_SETTINGS) settings?: DeliverySettings) {
    this.perHour = (settings ?? deliverySettingsFrom({})).downloadRefusalsPerHour;
    this.limiter = new RateLimiterMemory({ points: this.perHour, duration: HOUR_SECONDS });
  }

  /** Counts one refused download of the caller for the request: undefined within the budget, else the seconds until it is renewed. */
  async spend(tenantId: string, requestId: string, principalId: string): Promise<number | undefined> {
    try {
      await this.limiter.consume(`${tenantId}\u0000${requestId}\u0000${principalId}`);
      return undefined;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  }
}
