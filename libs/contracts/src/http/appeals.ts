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

/**
 * What lifecycle-clock made of a reply to a refused request (internal, intake-gateway's inbound webhooks;
 * docs/webhooks.md#appeals-by-reply): `appeal_filed`; `sender_unverified` (it would have been, but the sender is not
 * verified: nothing filed, operators confirm it); `appeal_exists` (an appeal was filed since the refusal: the reply
 * joins the timeline); `no_appeal_right` (the pinned pack gives none), `not_refused`, `before_refusal` (received
 * before the refusal): nothing filed.
 */
export const APPEAL_BY_REPLY_OUTCOMES = ['appeal_filed', 'sender_unverified', 'appeal_exists', 'no_appeal_right', 'not_refused', 'before_refusal'] as const;
export type AppealByReplyOutcome = (typeof APPEAL_BY_REPLY_OUTCOMES)[number];

/** Internal `POST /internal/v1/requests/:id/appeals/by-reply`: a reply an inbound channel received, its words as the appeal's message. */
export const appealByReplyCommand = z
  .strictObject({
    message: z.string().max(10_000),
    /** When the channel received the reply: the appeal's clock counts from it. */
    receivedAt: timestamp,
    channel: z.enum(['email', 'chat']),
    /** Whether intake took the reply as the requester's (docs/webhooks.md#replies): an unverified one files nothing. */
    senderVerified: z.boolean(),
  })
  .meta({ id: 'AppealByReplyCommand' });
export type AppealByReplyCommand = z.infer<typeof appealByReplyCommand>;

export const appealByReplyResult = z
  .object({ requestId: z.uuid(), outcome: z.enum(APPEAL_BY_REPLY_OUTCOMES), appealId: z.uuid().optional(), appealDueAt: timestamp.optional() })
  .meta({ id: 'AppealByReplyResult' });
export type AppealByReplyResult = z.infer<typeof appealByReplyResult>;
