import { caseScheduleOf, reachedReminderDays, rulesForTenant } from './case-schedule';

describe('verification case schedule', () => {
  const opened = new Date('2026-06-01T09:00:00Z');

  it('expires whole days after opening and keeps only reminders before the expiry', () => {
    expect(caseScheduleOf({ reminderDays: [14, 7, 7, 30, 45], expiryDays: 30 }, opened)).toEqual({
      reminderDays: [7, 14],
      expiresAt: new Date('2026-07-01T09:00:00Z'),
    });
  });

  it('with expiry off keeps every reminder and has no expiry', () => {
    expect(caseScheduleOf({ reminderDays: [45, 7], expiryDays: 0 }, opened)).toEqual({ reminderDays: [7, 45], expiresAt: null });
  });

  it('reaches a reminder day at its exact instant, not a millisecond before', () => {
    expect(reachedReminderDays([7, 14], opened, new Date('2026-06-08T08:59:59.999Z'))).toEqual([]);
    expect(reachedReminderDays([7, 14], opened, new Date('2026-06-08T09:00:00Z'))).toEqual([7]);
    expect(reachedReminderDays([7, 14], opened, new Date('2026-06-20T00:00:00Z'))).toEqual([7, 14]);
  });

  it("takes a tenant's overrides field by field", () => {
    const defaults = { reminderDays: [7, 14], expiryDays: 30 };
    expect(rulesForTenant(defaults, { t1: { expiryDays: 0 } }, 't1')).toEqual({ reminderDays: [7, 14], expiryDays: 0 });
    expect(rulesForTenant(defaults, { t1: { reminderDays: [] } }, 't1')).toEqual({ reminderDays: [], expiryDays: 30 });
    expect(rulesForTenant(defaults, { t1: { expiryDays: 0 } }, 't2')).toEqual(defaults);
  });
});
