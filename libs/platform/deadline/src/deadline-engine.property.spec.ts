import fc from 'fast-check';
import { PAUSE_REASONS, REQUEST_TYPES, currentPolicyPacks, ruleFor } from '@dsar/contracts';
import { type ClockEvent, type ClockInput, ClockRuleError, computeClock } from './index';

/**
 * Properties every pack must keep, over random receipts, pauses and extensions
 * in 2024-2030 across every jurisdiction and request type:
 * a later receipt never gives an earlier due date, and neither a pause nor an
 * extension ever shortens the deadline.
 */
const DAY = 24 * 3600 * 1000;
const FROM = Date.UTC(2024, 0, 1);
const TO = Date.UTC(2030, 11, 31);

const targets = currentPolicyPacks().flatMap((pack) => pack.jurisdictions.flatMap((binding) => REQUEST_TYPES.map((requestType) => ({ pack, binding, requestType }))));
const target = fc.constantFrom(...targets);
const instant = fc.integer({ min: FROM, max: TO }).map((ms) => new Date(ms));
const clockMode = fc.constantFrom('receipt' as const, 'active' as const);

function inputOf(t: (typeof targets)[number], receivedAt: Date, events: ClockEvent[] = [], mode: ClockInput['clockMode'] = 'receipt'): ClockInput {
  return { pack: t.pack, binding: t.binding, requestType: t.requestType, clockMode: mode, receivedAt, events };
}

describe('clock properties (fast-check)', () => {
  it('a later receipt never gives an earlier due date', () => {
    fc.assert(
      fc.property(target, instant, fc.integer({ min: 0, max: 40 * DAY }), (t, receivedAt, laterBy) => {
        const earlier = computeClock(inputOf(t, receivedAt)).finalDueAt;
        const later = computeClock(inputOf(t, new Date(receivedAt.getTime() + laterBy))).finalDueAt;
        expect(later.getTime()).toBeGreaterThanOrEqual(earlier.getTime());
      }),
      { numRuns: 400 },
    );
  });

  it('a pause, open or ended, never shortens the deadline', () => {
    fc.assert(
      fc.property(
        target,
        instant,
        clockMode,
        fc.constantFrom(...PAUSE_REASONS),
        fc.integer({ min: 0, max: 60 * DAY }),
        fc.integer({ min: 0, max: 60 * DAY }),
        fc.boolean(),
        (t, receivedAt, mode, reason, startAfter, lasting, ended) => {
          const from = new Date(receivedAt.getTime() + startAfter);
          const events: ClockEvent[] = [{ kind: 'pause', reason, at: from, actor: 'p' }];
          if (ended) events.push({ kind: 'resume', at: new Date(from.getTime() + lasting), actor: 'p' });
          const without = computeClock(inputOf(t, receivedAt, [], mode)).finalDueAt;
          const withPause = computeClock(inputOf(t, receivedAt, events, mode)).finalDueAt;
          expect(withPause.getTime()).toBeGreaterThanOrEqual(without.getTime());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an accepted extension never shortens the deadline, and a refused one changes nothing', () => {
    const extendable = targets.filter((t) => ruleFor(t.pack, t.requestType).extension);
    fc.assert(
      fc.property(fc.constantFrom(...extendable), instant, fc.integer({ min: 0, max: 50 * DAY }), fc.integer({ min: 1, max: 90 }), (t, receivedAt, after, amount) => {
        const rule = ruleFor(t.pack, t.requestType).extension!;
        const unit = rule.maxTotal?.unit ?? (ruleFor(t.pack, t.requestType).period.unit === 'months' ? 'months' : 'calendar_days');
        const extension: ClockEvent = {
          kind: 'extension',
          at: new Date(receivedAt.getTime() + after),
          actor: 'p',
          justification: 'policy_extension',
          reason: 'complexity',
          ...(unit === 'months' ? { additionalMonths: 1 + (amount % 3) } : { additionalDays: amount }),
        };
        const without = computeClock(inputOf(t, receivedAt)).finalDueAt;
        try {
          const extended = computeClock(inputOf(t, receivedAt, [extension])).finalDueAt;
          // Equal is possible: a one-day extension of a Saturday end can roll to the same Monday.
          expect(extended.getTime()).toBeGreaterThanOrEqual(without.getTime());
        } catch (error) {
          expect(error).toBeInstanceOf(ClockRuleError);
          expect(['EXTENSION_NOTICE_PERIOD_ELAPSED', 'EXTENSION_EXCEEDS_MAXIMUM']).toContain((error as ClockRuleError).violation);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('the due date is always the last millisecond of a local day, after receipt', () => {
    fc.assert(
      fc.property(target, instant, (t, receivedAt) => {
        const clock = computeClock(inputOf(t, receivedAt));
        expect(clock.finalDueAt.getTime()).toBeGreaterThan(receivedAt.getTime());
        const nextMs = new Date(clock.finalDueAt.getTime() + 1);
        const local = new Intl.DateTimeFormat('en-GB', { timeZone: t.binding.timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(nextMs);
        expect(local).toBe('00:00:00');
      }),
      { numRuns: 300 },
    );
  });
});
