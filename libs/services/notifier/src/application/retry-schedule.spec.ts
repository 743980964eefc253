import { retryDelayMs } from './retry-schedule';

describe('retryDelayMs', () => {
  const retry = { baseMs: 1000, maxMs: 10_000 };

  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((t) => retryDelayMs(t, retry, undefined, () => 1))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('jitters between half and all of the delay', () => {
    expect(retryDelayMs(3, retry, undefined, () => 0)).toBe(2000);
    expect(retryDelayMs(3, retry, undefined, () => 0.5)).toBe(3000);
  });

  it("never retries before the provider's Retry-After", () => {
    expect(retryDelayMs(1, retry, 30_000, () => 0)).toBe(30_000);
    expect(retryDelayMs(4, retry, 100, () => 1)).toBe(8000);
  });
});
