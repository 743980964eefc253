import { CLOCK_MODES, REQUEST_TYPES, resolveJurisdiction } from '@dsar/contracts';
import { computeClock } from '@dsar/platform/deadline';
import { initialDeadlines } from './request-deadline';

describe('initialDeadlines', () => {
  it('gives what the clock engine gives for any receipt instant, also when the day was computed before', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const code of ['GB', 'DE', 'US-CA', 'CA', 'ZA', 'JP']) {
      const jurisdiction = resolveJurisdiction(code)!;
      for (let i = 0; i < 60; i++) {
        // Receipts spread over 2026, several on one local day, near midnight too.
        const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 365 * 4) * 6 * 3600_000 + Math.floor(next() * 6 * 3600_000));
        const requestType = REQUEST_TYPES[i % REQUEST_TYPES.length];
        const clockMode = jurisdiction.pack.clockModes.allowed[i % jurisdiction.pack.clockModes.allowed.length] ?? CLOCK_MODES[0];
        const clock = computeClock({ ...jurisdiction, requestType, clockMode, receivedAt: at, events: [] });
        expect(initialDeadlines(jurisdiction, requestType, clockMode, at)).toEqual({ dueAt: clock.finalDueAt, acknowledgementDueAt: clock.acknowledgementDueAt });
      }
    }
  });

  it('hands out copies: a caller changing its result changes no later one', () => {
    const jurisdiction = resolveJurisdiction('DE')!;
    const at = new Date('2026-03-03T10:00:00Z');
    const first = initialDeadlines(jurisdiction, 'access', 'receipt', at);
    first.dueAt = new Date(0);
    expect(initialDeadlines(jurisdiction, 'access', 'receipt', at).dueAt.getTime()).not.toBe(0);
  });
});
