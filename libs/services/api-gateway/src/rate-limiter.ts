import { isIPv6 } from 'node:net';
import type { Request } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Principal } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';

/**
 * A fixed window of N requests per minute per key, kept in this gateway
 * replica's memory: with R replicas behind a balancer a key gets up to R×N.
 * Headers follow the IETF RateLimit fields draft. `counted` names what is
 * counted, for the 429's detail ("requests", "webhook deliveries from this
 * address"). A budget of 0 counts nothing and refuses nothing.
 */
class MinuteBudget {
  private readonly limiter?: RateLimiterMemory;

  constructor(
    private readonly perMinute: number,
    private readonly counted: string,
  ) {
    if (perMinute > 0) this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  }

  /** Counts one request of `key`; returns the headers to send, or throws 429 with Retry-After. */
  async consume(key: string): Promise<Record<string, string>> {
    if (!this.limiter) return {};
    try {
      return this.headers(await this.limiter.consume(key));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw this.refusal(rejection);
    }
  }

  private refusal(state: RateLimiterRes): ProblemError {
    const retryAfter = String(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
    return new ProblemError('RATE_LIMITED', `More than ${this.perMinute} ${this.counted} in a minute; retry in ${retryAfter} s.`, undefined, {}, { 'Retry-After': retryAfter, ...this.headers(state) });
  }

  private headers(res: RateLimiterRes): Record<string, string> {
    return {
      'RateLimit-Limit': String(this.perMinute),
      'RateLimit-Remaining': String(Math.max(0, res.remainingPoints)),
      'RateLimit-Reset': String(Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}

/** N requests per minute per caller: its tenant and principal id, whichever client sends them. */
export class CallerRateLimiter {
  private readonly budget: MinuteBudget;

  constructor(perMinute: number) {
    this.budget = new MinuteBudget(perMinute, 'requests');
  }

  /** Counts one request; returns the headers to send, or throws 429 with Retry-After. */
  consume(principal: Principal): Promise<Record<string, string>> {
    return this.budget.consume(`${principal.tenantId}\u0000${principal.id}`);
  }
}

/**
 * N requests per minute per client address (clientKeyOf), for requests the
 * gateway answers without a caller it authenticated, or for a provider's
 * webhook deliveries: a budget of its own for each.
 */
export class AddressRateLimiter {
  private readonly budget: MinuteBudget;

  constructor(perMinute: number, counted: string) {
    this.budget = new MinuteBudget(perMinute, `${counted} from this address`);
  }

  /** Counts one request of the client; returns the headers to send, or throws 429 with Retry-After. */
  consume(client: string): Promise<Record<string, string>> {
    return this.budget.consume(client);
  }
}

/**
 * The key a client's address is counted under: its IPv4 address, or the /64
 * network of its IPv6 address (one host commonly holds a whole /64, so
 * counting single IPv6 addresses would let it pick a new one per request).
 * The address is Express's `req.ip`: the connection's peer, or, behind the
 * proxies TRUSTED_PROXIES names, the first address of X-Forwarded-For that
 * is not one of them.
 */
export function clientKeyOf(req: Request): string {
  const address = req.ip ?? req.socket?.remoteAddress ?? '';
  const mappedV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mappedV4) return mappedV4[1];
  if (!isIPv6(address)) return address || 'unknown';
  return `${ipv6Groups(address).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, each without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('%')[0].toLowerCase().split('::');
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const before = groupsOf(head);
  const after = groupsOf(tail);
  const missing = tail === undefined ? [] : new Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0');
  return [...before, ...missing, ...after].map((g) => g.replace(/^0+(?=.)/, ''));
}
