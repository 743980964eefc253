import { z } from 'zod';
import { REQUEST_TYPES } from '../http/requests';

/**
 * A policy pack: the rules of one law as versioned data. The deadline engine
 * in lifecycle-clock reads packs; policy-registry lists them. Built-in packs
 * are the JSON files next to this module.
 */
export const ROLL_RULES = ['none', 'saturday_sunday_holiday', 'sunday_holiday'] as const;
export const PERIOD_UNITS = ['calendar_days', 'business_days', 'months'] as const;

export const periodRule = z.strictObject({
  amount: z.number().int().positive(),
  unit: z.enum(PERIOD_UNITS),
  /** Whether the receipt day is day one (day periods only; month periods go to the same date). */
  countReceiptDay: z.boolean(),
  /** Where a last day that is not a working day moves to. */
  roll: z.enum(ROLL_RULES),
});
export type PeriodRule = z.infer<typeof periodRule>;

export const jurisdictionBinding = z.strictObject({
  /** ISO 3166-1 alpha-2, ISO 3166-2, or `EU`. */
  code: z.string().regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/),
  name: z.string().min(1),
  /** IANA time zone whose local dates the clock counts on. */
  timeZone: z.string().min(1),
  /** Public-holiday calendar (date-holidays country and subdivision); null when only weekends count. */
  holidays: z.strictObject({ country: z.string().length(2), state: z.string().min(1).optional() }).nullable(),
});
export type JurisdictionBinding = z.infer<typeof jurisdictionBinding>;

export const policyPackSchema = z.strictObject({
  packId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be semver MAJOR.MINOR.PATCH'),
  publishedAt: z.iso.datetime({ offset: true }),
  effectiveFrom: z.iso.date(),
  clockMode: z.enum(['receipt', 'active']),
  jurisdictions: z.array(jurisdictionBinding).min(1),
  periods: z.strictObject(Object.fromEntries(REQUEST_TYPES.map((t) => [t, periodRule])) as Record<(typeof REQUEST_TYPES)[number], typeof periodRule>),
  citations: z.array(z.strictObject({ title: z.string().min(1), url: z.url().optional() })).min(1),
  notes: z.array(z.string()),
});
export type PolicyPack = z.infer<typeof policyPackSchema>;
