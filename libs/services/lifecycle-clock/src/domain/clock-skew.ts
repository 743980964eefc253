/** How far a client's clock may run ahead of ours before a time it sends counts as "in the future". */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** Whether `at` is later than `now` by more than the allowed skew. */
export function isInFuture(at: Date, now: Date): boolean {
  return at.getTime() > now.getTime() + CLOCK_SKEW_MS;
}
