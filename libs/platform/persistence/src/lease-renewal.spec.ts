import { whileRenewingLease } from './lease-renewal';

describe('whileRenewingLease', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('renews every interval while the work runs and stops once it has finished', async () => {
    const renew = jest.fn(() => Promise.resolve());
    let finish!: (value: string) => void;
    const result = whileRenewingLease(renew, 1_000, () => new Promise<string>((resolve) => (finish = resolve)));
    await jest.advanceTimersByTimeAsync(3_500);
    expect(renew).toHaveBeenCalledTimes(3);
    finish('done');
    await expect(result).resolves.toBe('done');
    await jest.advanceTimersByTimeAsync(5_000);
    expect(renew).toHaveBeenCalledTimes(3);
  });

  it('stops renewing when the work fails, and passes its error on', async () => {
    const renew = jest.fn(() => Promise.resolve());
    const result = whileRenewingLease(renew, 1_000, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      throw new Error('work failed');
    });
    const settled = expect(result).rejects.toThrow('work failed');
    await jest.advanceTimersByTimeAsync(1_500);
    await settled;
    await jest.advanceTimersByTimeAsync(5_000);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it('keeps working when a renewal fails', async () => {
    const renew = jest.fn(() => Promise.reject(new Error('database unavailable')));
    const result = whileRenewingLease(renew, 1_000, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      return 'done';
    });
    await jest.advanceTimersByTimeAsync(2_500);
    await expect(result).resolves.toBe('done');
    expect(renew).toHaveBeenCalledTimes(2);
  });
});
