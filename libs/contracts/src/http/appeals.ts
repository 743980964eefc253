import { z } from 'zod';
import { text, timestamp } from './fields';

/** HTTP contracts of appeals against a request's outcome (docs/lifecycle.md). */

export const APPEAL_STATUSES = ['appeal_submitted', 'appeal_decided'] as const;
export const APPEAL_DECISIONS = ['approve', 'deny', 'partial'] as const;
export type AppealDecision = (typeof APPEAL_DECISIONS)[number];

/** On creation only the client's fields; anything else (id, status, decision, timestamps) is a 400. */
export const appealCommand = z
  .strictObject({
    message: text(10_000).describe('Why the requester disagrees with the outcome'),
    grounds: text(10_000).optional(),
  })
  .meta({ id: 'AppealCommand' });
export type AppealCommand = z.infer<typeof appealCommand>;

export const appealDecisionCommand = z
  .strictObject({
    decision: z.enum(APPEAL_DECISIONS).describe("`approve` or `partial` reopen the request (`in_progress`) on the pack's appeal clock; `deny` leaves it as it is"),
    explanation: text(10_000).optional().describe('The decision as the requester is told it'),
  })
  .meta({ id: 'AppealDecisionCommand' });
export type AppealDecisionCommand = z.infer<typeof appealDecisionCommand>;

export const appealAccepted = z.object({ appealId: z.uuid(), requestId: z.uuid(), status: z.literal('appeal_submitted') }).meta({ id: 'AppealAccepted' });
export type AppealAccepted = z.infer<typeof appealAccepted>;

export const appealDecided = z.object({ appealId: z.uuid(), decision: z.enum(APPEAL_DECISIONS), requestId: z.uuid(), status: z.literal('appeal_decided') }).meta({ id: 'AppealDecided' });
export type AppealDecided = z.infer<typeof appealDecided>;

export const appealView = z
  .object({
    id: z.uuid(),
    message: z.string(),
    grounds: z.string().nullable(),
    status: z.enum(APPEAL_STATUSES),
    createdAt: timestamp,
    dueAt: timestamp.describe("When the appeal must be decided: the pack's appeal period from its receipt (docs/lifecycle.md)"),
    decision: z.enum(APPEAL_DECISIONS).optional(),
    explanation: z.string().nullable().optional(),
    decidedAt: timestamp.optional(),
  })
  .meta({ id: 'Appeal' });
export type AppealView = z.infer<typeof appealView>;
export const appealList = z.array(appealView).meta({ id: 'AppealList' });
