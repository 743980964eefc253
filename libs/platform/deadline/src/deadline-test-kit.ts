import { DateTime } from 'luxon';
import { type JurisdictionBinding, type PeriodRule } from '@dsar/contracts';
import { computeBaseDeadline } from './base-deadline';
import { ClockRuleError } from './deadline-engine';

/** Helpers the deadline specs share (test code only). */

/** The local days a base deadline is checked on. */
export interface Expected {
  receiptDay: string;
  periodEnd: string;
  lastDay: string;
}

export type Case = [title: string, rule: PeriodRule, binding: JurisdictionBinding, receivedAt: string, expected: Expected];

/** Checks a base deadline's local days, and that `dueAt` is the last millisecond of the last local day. */
export function expectDeadline(rule: PeriodRule, binding: JurisdictionBinding, receivedAt: string, expected: Expected) {
  const deadline = computeBaseDeadline(rule, binding, new Date(receivedAt));
  expect({ receiptDay: deadline.receiptDay, periodEnd: deadline.periodEnd, lastDay: deadline.lastDay }).toEqual(expected);
  const localDue = DateTime.fromJSDate(deadline.dueAt, { zone: binding.timeZone });
  expect(localDue.toFormat("yyyy-MM-dd'T'HH:mm:ss.SSS")).toBe(`${expected.lastDay}T23:59:59.999`);
  expect(DateTime.fromMillis(deadline.dueAt.getTime() + 1, { zone: binding.timeZone }).toISODate()).not.toBe(expected.lastDay);
  return deadline;
}

/** The pack rule a clock computation broke, or undefined when it succeeded. */
export function violationOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ClockRuleError) return error.violation;
    throw error;
  }
  return undefined;
}
