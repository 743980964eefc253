const DAY_MS = 86_400_000;

export interface ScheduleRules {
  reminderDays: readonly number[];
  /** 0: no expiry. */
  expiryDays: number;
}

export interface CaseSchedule {
  reminderDays: number[];
  expiresAt: Date | null;
}

/**
 * When a case opened at `requestedAt` reminds and expires. Days are whole
 * 24-hour periods from the opening instant; reminders on or after the expiry
 * are dropped (the expiry notice replaces them).
 */
export function caseScheduleOf(rules: ScheduleRules, requestedAt: Date): CaseSchedule {
  const expiresAt = rules.expiryDays > 0 ? new Date(requestedAt.getTime() + rules.expiryDays * DAY_MS) : null;
  const reminderDays = [...new Set(rules.reminderDays)].filter((d) => d > 0 && (rules.expiryDays === 0 || d < rules.expiryDays)).sort((a, b) => a - b);
  return { reminderDays, expiresAt };
}

/** The reminder days a case opened at `requestedAt` has reached by `now`, oldest first. */
export function reachedReminderDays(reminderDays: readonly number[], requestedAt: Date, now: Date): number[] {
  return reminderDays.filter((d) => requestedAt.getTime() + d * DAY_MS <= now.getTime());
}

/** The rules for a tenant: its own overrides over the service's defaults. */
export function rulesForTenant(defaults: ScheduleRules, overrides: Readonly<Record<string, Partial<ScheduleRules>>>, tenantId: string): ScheduleRules {
  const own = overrides[tenantId] ?? {};
  return { reminderDays: own.reminderDays ?? defaults.reminderDays, expiryDays: own.expiryDays ?? defaults.expiryDays };
}
