import { z } from 'zod';
import { NO_CONTROL_CHARACTERS, NO_CONTROL_CHARACTERS_MESSAGE, timestamp } from '../http/fields';
import { CLOCK_MODES, REQUEST_TYPES, type RequestType } from '../http/request-kinds';

/**
 * A policy pack: the deadline rules of one law as versioned data. The deadline
 * engine in lifecycle-clock reads packs; policy-registry lists them. Built-in
 * packs are the JSON files in `./packs`; `docs/policy-packs/policy-pack.schema.json`
 * is this schema as JSON Schema, for authors of custom packs.
 */
export const ROLL_RULES = ['none', 'saturday_sunday_holiday', 'sunday_holiday'] as const;
export const PERIOD_UNITS = ['calendar_days', 'business_days', 'months'] as const;
export const EXTENSION_UNITS = ['calendar_days', 'months'] as const;
export const PAUSE_REASONS = ['verification', 'clarification', 'fee'] as const;
export const PAUSE_RULES = ['restart', 'suspend', 'ignore'] as const;
/** Whether a period is set by the law itself or is the pack's service target where the law has no day count. */
export const RULE_BASES = ['statute', 'service_target'] as const;

/**
 * A string of a pack: no control characters (the text rule of
 * docs/security.md#input-rules, white space kept as written). Custom packs come
 * from clients and are stored whole, and PostgreSQL cannot hold a NUL.
 */
const packString = () => z.string().regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE });

export type RollRule = (typeof ROLL_RULES)[number];
export type PauseReason = (typeof PAUSE_REASONS)[number];
export type PauseRule = (typeof PAUSE_RULES)[number];

/**
 * The largest amount of a period or an extension: no law gives more than a few years, and the engine counts working
 * days one at a time, so an unbounded amount (a custom pack's) would tie up the service.
 */
export const MAX_PERIOD_AMOUNT = 1000;

export const periodRule = z
  .strictObject({
    amount: z.number().int().positive().max(MAX_PERIOD_AMOUNT),
    unit: z.enum(PERIOD_UNITS),
    /** Whether the receipt day is day one (day periods only; a month period always ends on the corresponding date). */
    countReceiptDay: z.boolean(),
    /** Where a last day that is not a working day moves to. */
    roll: z.enum(ROLL_RULES),
  })
  .meta({ id: 'PeriodRule', description: 'A period counted on local dates from the day the clock starts.' });
export type PeriodRule = z.infer<typeof periodRule>;

export const pauseRules = z.strictObject(Object.fromEntries(PAUSE_REASONS.map((r) => [r, z.enum(PAUSE_RULES)])) as Record<PauseReason, z.ZodEnum<{ [K in PauseRule]: K }>>).meta({
  id: 'PauseRules',
  description:
    'What a pause for each reason does: `restart` runs the whole period again from the day it ends, `suspend` adds the paused days (both end days included), `ignore` keeps the clock running.',
});
export type PauseRules = z.infer<typeof pauseRules>;

export const extensionRule = z
  .strictObject({
    /** The most all extensions together may add; null when the law sets no cap (the controller names the new date). */
    maxTotal: z.strictObject({ amount: z.number().int().positive().max(MAX_PERIOD_AMOUNT), unit: z.enum(EXTENSION_UNITS) }).nullable(),
    /** How many separate extensions are allowed. */
    maxCount: z.number().int().positive().max(100),
    /** The window, counted like a period from the clock start and stretched by suspensions, within which the requester must be told. */
    noticeWithin: periodRule,
    reasonRequired: z.boolean(),
    /** Whether the extended period is counted from the clock start (`start`: N + M) or added to the end of the base period (`period_end`). */
    measuredFrom: z.enum(['start', 'period_end']),
  })
  .meta({ id: 'ExtensionRule' });
export type ExtensionRule = z.infer<typeof extensionRule>;

export const requestRule = z
  .strictObject({
    basis: z.enum(RULE_BASES),
    period: periodRule,
    pauses: pauseRules,
    extension: extensionRule.nullable(),
    /** Deadline for telling the requester that the request arrived; null when the law sets none. */
    acknowledgement: periodRule.nullable(),
    /** Deadline for telling the requester that no action will be taken, and why; null when it is the response deadline. */
    refusalNotice: periodRule.nullable(),
  })
  .meta({ id: 'RequestRule', description: 'The deadline rules for one request type.' });
export type RequestRule = z.infer<typeof requestRule>;

export const appealRule = z
  .strictObject({
    response: periodRule,
    extension: extensionRule.nullable(),
  })
  .meta({ id: 'AppealRule', description: "The controller's deadline for answering an appeal against its decision." });
export type AppealRule = z.infer<typeof appealRule>;

export const jurisdictionBinding = z
  .strictObject({
    /** ISO 3166-1 alpha-2, ISO 3166-2, or `EU`. */
    code: z.string().regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'must be a jurisdiction code in capitals such as DE, EU or US-CA'),
    name: packString().min(1),
    /** IANA time zone whose local dates the clock counts on. */
    timeZone: packString().min(1),
    /** Public-holiday calendar (date-holidays country and subdivision); null when only weekends count. */
    holidays: z.strictObject({ country: packString().length(2), state: packString().min(1).optional() }).nullable(),
  })
  .meta({ id: 'JurisdictionBinding' });
export type JurisdictionBinding = z.infer<typeof jurisdictionBinding>;

const requestRuleOverride = requestRule
  .partial()
  .meta({ id: 'RequestRuleOverride', description: "The members of a request type's rules that differ from the default; each replaces the default's member whole." });

export const policyPackSchema = z
  .strictObject({
    packId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be a pack id of small letters, digits and dashes such as eu-gdpr'),
    name: packString().min(1),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'must be semver MAJOR.MINOR.PATCH'),
    publishedAt: timestamp,
    effectiveFrom: z.iso.date(),
    /** Where the clock starts by default, and which modes a tenant may choose (`active` only where the law allows it). */
    clockModes: z
      .strictObject({ default: z.enum(CLOCK_MODES), allowed: z.array(z.enum(CLOCK_MODES)).min(1) })
      .refine((m) => m.allowed.includes(m.default), { message: 'the default clock mode must be allowed', path: ['allowed'] })
      // The refinement as JSON Schema, so that the published schemas (OpenAPI, policy-pack.schema.json) say it too.
      .meta({ anyOf: CLOCK_MODES.map((mode) => ({ properties: { default: { const: mode }, allowed: { type: 'array', contains: { const: mode } } } })) }),
    jurisdictions: z.array(jurisdictionBinding).min(1),
    rules: z.strictObject({
      /** The rules of every request type unless overridden. */
      default: requestRule,
      /** Per request type, the members that differ from the default (each replaces the default's member whole). */
      overrides: z.strictObject(Object.fromEntries(REQUEST_TYPES.map((t) => [t, requestRuleOverride.optional()])) as Record<RequestType, z.ZodOptional<typeof requestRuleOverride>>),
    }),
    /** The controller's deadline for an appeal; null where the law gives no appeal to the controller. */
    appeal: appealRule.nullable(),
    // A url with a pattern is published with the pattern alone: `format: 'uri'` is named again so that the schema keeps it.
    citations: z.array(z.strictObject({ title: packString().min(1), url: z.url().regex(NO_CONTROL_CHARACTERS, { error: NO_CONTROL_CHARACTERS_MESSAGE }).meta({ format: 'uri' }).optional() })).min(1),
    /** Interpretations chosen, with the alternatives a reader may prefer. */
    notes: z.array(packString()),
  })
  .meta({ id: 'PolicyPack', title: 'DSAR policy pack', description: 'The deadline rules of one law, as versioned data.' });
export type PolicyPack = z.infer<typeof policyPackSchema>;

/**
 * The complete rules a pack gives one request type: the default with that type's overrides. A request in triage
 * (`null`: no type yet) runs on the default alone until an operator names its type (docs/policy-packs/README.md).
 */
export function ruleFor(pack: PolicyPack, requestType: RequestType | null): RequestRule {
  return requestType === null ? { ...pack.rules.default } : { ...pack.rules.default, ...pack.rules.overrides[requestType] };
}
