import { expectLinearGrowth } from './measure';

/** Work of n steps, and of n² steps, on an array of n numbers. */
const linear = (values: number[]) => values.reduce((sum, v) => sum + v, 0);
const quadratic = (values: number[]) => {
  let sum = 0;
  for (const a of values) for (const b of values) sum += a ^ b;
  return sum;
};
const numbers = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('expectLinearGrowth', () => {
  it('passes linear work, with its figures', () => {
    const growth = expectLinearGrowth(numbers, linear, 200_000);
    expect(growth.ratio).toBeLessThanOrEqual(8);
    expect(growth.largeMs).toBeGreaterThan(0);
  });

  it('fails quadratic work, saying how it grew', () => {
    expect(() => expectLinearGrowth(numbers, quadratic, 3_000)).toThrow(/4 times the input took more than 8 times as long, 3 times in a row: .*ms \(×\d/);
  });
});
