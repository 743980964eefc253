import { REQUEST_TYPES, resolveJurisdiction, ruleFor } from '@dsar/contracts';
import { computeClock } from './deadline-engine';

/** The clock of a request in triage (no type yet): the pack's default rule, from the same receipt. */
describe('the clock of a request in triage', () => {
  const clockOf = (code: string, requestType: (typeof REQUEST_TYPES)[number] | null, receivedAt = '2026-11-17T01:00:00Z') => {
    const { pack, binding } = resolveJurisdiction(code)!;
    return computeClock({ pack, binding, requestType, clockMode: 'receipt', receivedAt: new Date(receivedAt), events: [] });
  };

  it("runs on the pack's default rule: a US-CA request 45 days from Mon 16 Nov 2026, where an opt-out would have 15 business days", () => {
    const triaged = clockOf('US-CA', null);
    expect(triaged.rule).toEqual(resolveJurisdiction('US-CA')!.pack.rules.default);
    expect(triaged.lastDay).toBe('2026-12-30');
    expect(triaged.finalDueAt.toISOString()).toBe('2026-12-31T07:59:59.999Z');
    expect(clockOf('US-CA', 'opt_out').lastDay).toBe('2026-12-09');
    // A type without an override runs on the same rule as triage.
    expect(clockOf('US-CA', 'access').finalDueAt).toEqual(triaged.finalDueAt);
  });

  it('says in its steps that the type is not known yet and the deadline may move', () => {
    expect(clockOf('DE', null).steps[1]).toMatch(/^Request type not known yet \(triage\): the pack's default rule applies/);
    expect(clockOf('DE', 'access').steps.join('\n')).not.toMatch(/triage/);
  });

  it('takes no override of any type: ruleFor(pack, null) is the default of every built-in pack', () => {
    for (const code of ['US-CA', 'GB', 'BR', 'DE']) {
      const { pack } = resolveJurisdiction(code)!;
      expect(ruleFor(pack, null)).toEqual(pack.rules.default);
      // And a copy: a caller changing it leaves the pack alone.
      expect(ruleFor(pack, null)).not.toBe(pack.rules.default);
    }
  });
});
