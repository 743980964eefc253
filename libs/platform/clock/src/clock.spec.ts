import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock, systemClock } from './clock';

describe('ManualClock', () => {
  it('starts where it is told and runs on at the real pace', async () => {
    const clock = new ManualClock('2028-02-29T12:00:00Z');
    const first = clock.now().getTime();
    expect(first).toBeGreaterThanOrEqual(Date.parse('2028-02-29T12:00:00Z'));
    await sleep(20);
    expect(clock.now().getTime()).toBeGreaterThan(first);
    expect(clock.now().getTime() - Date.parse('2028-02-29T12:00:00Z')).toBeLessThan(5_000);
  });

  it('frozen, answers one instant until set again', async () => {
    const clock = new ManualClock('2026-12-24T10:00:00Z', { running: false });
    await sleep(5);
    expect(clock.now().toISOString()).toBe('2026-12-24T10:00:00.000Z');
    clock.set('2026-12-31T23:59:59Z');
    expect(clock.now().toISOString()).toBe('2026-12-31T23:59:59.000Z');
    clock.advance(86_400_000);
    expect(clock.now().toISOString()).toBe('2027-01-01T23:59:59.000Z');
    clock.advance(-1000);
    expect(clock.now().toISOString()).toBe('2027-01-01T23:59:58.000Z');
    expect(clock.daysAgo(2)).toBe('2026-12-30T23:59:58.000Z');
    expect(clock.later(2000)).toBe('2027-01-02T00:00:00.000Z');
  });

  it('runAt moves the clock for the work only, even when the work fails', async () => {
    const clock = new ManualClock('2026-03-28T10:00:00Z', { running: false });
    const seen = await clock.runAt('2026-06-10T09:00:00Z', async () => clock.now().toISOString());
    expect(seen).toBe('2026-06-10T09:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-03-28T10:00:00.000Z');
    await expect(clock.runAt('2027-01-01T00:00:00Z', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(clock.now().toISOString()).toBe('2026-03-28T10:00:00.000Z');
  });

  it('refuses what is not an instant', () => {
    expect(() => new ManualClock('yesterday')).toThrow('Not an instant');
  });

  it('the system clock is the real time', () => {
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});
