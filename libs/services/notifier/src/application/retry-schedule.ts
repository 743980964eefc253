/**
 * How long to wait before the next try after `tries` failed ones: the base
 * doubled each time, capped, with jitter (half to all of it) so that sends
 * that failed together do not retry together; never sooner than the
 * provider's Retry-After.
 */
export function retryDelayMs(tries: number, retry: { baseMs: number; maxMs: number }, retryAfterMs?: number, random: () => number = Math.random): number {
  const exponential = Math.min(retry.maxMs, retry.baseMs * 2 ** Math.max(0, tries - 1));
  const jittered = Math.round(exponential * (0.5 + random() / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}
