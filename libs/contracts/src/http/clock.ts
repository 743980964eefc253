import { z } from 'zod';
import { text, timestamp } from './fields';
import { lifecycleResult } from './lifecycle';
import { PAUSE_REASONS, PAUSE_RULES, requestRule } from '../policy/policy-pack';
import { CLOCK_MODES, REQUEST_TYPES } from './requests';

/** Justification recorded when the caller gives none: the pack's own extension rule. */
export const DEFAULT_EXTENSION_JUSTIFICATION = 'policy_extension';

export const extensionCommand = z
  .strictObject({
    justification: text(64)
      .regex(/^[a-z][a-z0-9_]*$/, 'must be a snake_case label, e.g. `policy_extension`, `complexity`, `number_of_requests`')
      .optional()
      .describe(`Why the deadline is extended, as a label; default \`${DEFAULT_EXTENSION_JUSTIFICATION}\``),
    additionalDays: z.number().int().positive().max(366).optional().describe('Days to add, where the pack extends in days'),
    additionalMonths: z.number().int().positive().max(12).optional().describe('Months to add, where the pack extends in months'),
    reason: text(2000).optional().describe('The reasons for the delay, as the requester will be told them; required where the pack says so'),
  })
  .refine((c) => !(c.additionalDays !== undefined && c.additionalMonths !== undefined), {
    message: 'give additionalDays or additionalMonths, not both',
    path: ['additionalMonths'],
  })
  // The refinement above, as JSON Schema: the two amounts exclude each other.
  .meta({
    id: 'ExtensionCommand',
    description: "Without an amount, the extension takes what is left of the pack's maximum. Give `additionalDays` or `additionalMonths`, not both.",
    not: { required: ['additionalDays', 'additionalMonths'] },
  });
export type ExtensionCommand = z.infer<typeof extensionCommand>;

export const pauseCommand = z
  .strictObject({
    reason: z.enum(PAUSE_REASONS),
    at: timestamp.optional().describe('When the pause began (e.g. when the fee was asked for); default now; not before the latest clock event'),
    note: text(2000).optional(),
  })
  .meta({ id: 'PauseCommand' });
export type PauseCommand = z.infer<typeof pauseCommand>;

export const resumeCommand = z
  .strictObject({
    at: timestamp.optional().describe('When the pause ended (e.g. when the identity document or the payment arrived); default now'),
    note: text(2000).optional(),
  })
  .meta({ id: 'ResumeCommand' });
export type ResumeCommand = z.infer<typeof resumeCommand>;

/** The lifecycle response of the spec, with what the clock did. */
export const clockChangeResult = lifecycleResult
  .extend({
    previousDueAt: timestamp,
    clockState: z.enum(['running', 'paused']),
  })
  .meta({ id: 'ClockChangeResult' });
export type ClockChangeResult = z.infer<typeof clockChangeResult>;

export const SEGMENT_REASONS = ['base', 'resumed', 'restart', 'reopen', ...PAUSE_REASONS, 'extension', 'roll'] as const;

export const clockSegment = z
  .object({
    actor: z.string().describe('`system`, or the principal that paused, resumed or extended'),
    countsTowardDeadline: z.boolean(),
    from: timestamp,
    to: timestamp.nullable().describe('null while a pause is open'),
    policyVersion: z.string(),
    reason: z.enum(SEGMENT_REASONS).describe('`base` until the first pause; `resumed`/`restart` after one; a pause reason while paused; `extension` and `roll` for time they add'),
    rule: z.enum(PAUSE_RULES).optional().describe("The pack's rule for a pause segment"),
  })
  .meta({ id: 'ClockSegment' });

/** A request's facts a correction changes, before or after it. */
const correctedFacts = z.object({
  requestType: z.enum(REQUEST_TYPES).nullable().describe('null: in triage'),
  jurisdiction: z.string(),
  policyPack: z.string(),
  policyVersion: z.string(),
  dueAt: timestamp,
});

export const clockExplanation = z
  .object({
    requestId: z.uuid(),
    jurisdiction: z.string(),
    requestType: z.enum(REQUEST_TYPES).nullable().describe("null while the request is in triage: the clock runs on the pack's default rule (`rules.default`)"),
    baseDeadline: timestamp.describe('The base period from receipt, before pauses and extensions'),
    finalDueAt: timestamp.describe('The deadline with every pause and extension applied (= dueAt)'),
    policyPack: z.string(),
    policyVersion: z.string(),
    policyBasis: z
      .string()
      .describe(
        'Why the request runs on that pack version: the version in force on the local day of receipt (and the next one, with its date), or the custom pack activated for the tenant or workspace',
      ),
    repins: z
      .array(z.object({ at: timestamp, fromVersion: z.string(), toVersion: z.string(), actor: z.string(), note: z.string().nullable() }))
      .describe('Moves to another version of the pack by an applied upgrade proposal, oldest first; the clock is computed on the current version from receipt'),
    corrections: z
      .array(
        z.object({
          step: z.literal('corrected'),
          at: timestamp,
          actor: z.string(),
          reason: z.string(),
          from: correctedFacts,
          to: correctedFacts,
        }),
      )
      .describe(
        'Corrections of the request type or jurisdiction intake misread (`POST /requests/{id}/corrections`), oldest first; the clock is computed from the same receipt on the corrected facts, and `steps` says so in words',
      ),
    extensions: z.array(
      z.object({
        additionalDays: z.number().int().describe('Days requested, or, for a month extension, the calendar days it added'),
        additionalMonths: z.number().int().optional(),
        justification: z.string(),
        reason: z.string().nullable(),
        notifiedAt: timestamp,
        noticeDueAt: timestamp,
        previousDueAt: timestamp,
        dueAt: timestamp,
        actor: z.string(),
      }),
    ),
    pauses: z.array(
      z.object({
        duration: z.string().describe('ISO 8601 duration of the pause (up to now while it is open)'),
        note: z.string().nullable().describe('The note given when the pause began'),
        resumeNote: z.string().nullable().describe('The note given when it ended'),
        reason: z.enum(PAUSE_REASONS),
        rule: z.enum(PAUSE_RULES),
        effect: z.enum(['suspended', 'restarted', 'ignored', 'after_deadline', 'pending']),
        excludedDays: z.number().int().describe('Local days that do not count (suspension)'),
        from: timestamp,
        to: timestamp.nullable(),
        actor: z.string(),
      }),
    ),
    clock: z.object({
      clockMode: z.enum(CLOCK_MODES),
      dueAt: timestamp,
      receivedAt: timestamp.describe('When the original channel received the request: where the clock counts from'),
      state: z.enum(['running', 'paused']),
      pausedSince: timestamp.nullable(),
      startedAt: timestamp.describe('Where the period currently runs from (receipt, or the end of a restarting pause)'),
      timeZone: z.string(),
      lastDay: z.iso.date().describe('The local last day of the deadline'),
      segments: z.array(clockSegment),
    }),
    deadlines: z.object({
      acknowledgementDueAt: timestamp.nullable(),
      refusalNoticeDueAt: timestamp,
      extensionNoticeDueAt: timestamp.nullable().describe('Until when an extension can still be notified; null when none is possible'),
    }),
    rule: requestRule,
    steps: z.array(z.string()).describe('The computation in words'),
  })
  .meta({ id: 'ClockExplanation' });
export type ClockExplanation = z.infer<typeof clockExplanation>;
