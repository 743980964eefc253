import { z } from 'zod';
import { timestamp } from '../http/fields';
import { REQUEST_TYPES, TRIAGE_REASONS } from '../http/requests';
import { CAPTURE_OUTCOMES, INBOUND_PROVIDERS, INBOUND_REASONS, INBOUND_SURFACES } from '../http/webhooks';
import type { EventTypeDefinition } from './event-catalog';
import { Topics } from './topics';

/**
 * Facts of the inbound webhooks (intake-gateway, docs/webhooks.md): what became
 * of each email or chat message a provider delivered. They carry ids, hashes
 * and decisions, never the message's words, its subject or an address.
 */
const inboundFacts = {
  tenantId: z.string().min(1),
  workspaceId: z.string().min(1).nullable(),
  /** The record intake keeps of the delivery (no text in it). */
  intakeId: z.uuid(),
  surface: z.enum(INBOUND_SURFACES),
  provider: z.enum(INBOUND_PROVIDERS),
  /** The provider's id of the delivery: `webhook-id` (`svix-id`), or Slack's `event_id`. */
  deliveryId: z.string().min(1),
  /** The provider's id of the message: Resend's `email_id`, the generic shape's `messageId`, Slack's `ts`; null when it has none. */
  sourceId: z.string().min(1).nullable(),
  /** When the provider received the message. */
  receivedAt: timestamp,
  /** SHA-256 of the exact bytes of the delivery, lower-case hex. */
  contentSha256: z.string().regex(/^[a-f0-9]{64}$/, 'must be 64 lowercase hex characters'),
  /**
   * The message's language as detected (ISO 639-1), any language: intake reads en, de, fr, es, pt, it and nl, and
   * leaves a request in any other to triage. null when it could not tell.
   */
  language: z.string().min(2).max(16).nullable(),
  reason: z.enum(INBOUND_REASONS),
  occurredAt: timestamp,
};

export const inboundMessageCapturedV1 = z.object({
  requestId: z.uuid(),
  ...inboundFacts,
  outcome: z.enum(CAPTURE_OUTCOMES),
  /** The request type the classifier read; null for a reply to an existing request. */
  requestType: z.enum(REQUEST_TYPES).nullable(),
  /** For a new request without a type: why intake left it to an operator (triage). Absent otherwise, and on events from before. */
  triageReason: z.enum(TRIAGE_REASONS).optional(),
  /**
   * For a reply (`matched_thread`, `matched_reference`): whether intake took it as the requester's, sent from an
   * address the request knows and in its thread or quoting its tagged reference. `false`: recorded for an operator
   * to confirm; it answered no clarification and moved no clock. Absent for a new request, and on events from before.
   */
  senderVerified: z.boolean().optional(),
  /** For `appeal_filed`: the appeal the reply filed against the request's refusal, and when it must be decided. */
  appealId: z.uuid().optional(),
  appealDueAt: timestamp.optional(),
  /**
   * True for an unverified reply (`senderVerified: false`) to a refused request that a verified one would have filed
   * as an appeal (docs/webhooks.md#appeals-by-reply): nothing was filed; operators are alerted to confirm it.
   */
  appealUnconfirmed: z.literal(true).optional(),
});
export type InboundMessageCapturedV1 = z.infer<typeof inboundMessageCapturedV1>;

export const inboundMessageIgnoredV1 = z.object(inboundFacts);
export type InboundMessageIgnoredV1 = z.infer<typeof inboundMessageIgnoredV1>;

export const IntakeEventTypes = {
  messageCaptured: 'dsar.intake.message_captured.v1',
  messageIgnored: 'dsar.intake.message_ignored.v1',
} as const;

export const intakeEventDefinitions: EventTypeDefinition[] = [
  {
    type: IntakeEventTypes.messageCaptured,
    topic: Topics.intake,
    schema: inboundMessageCapturedV1,
    producer: 'intake-gateway',
    description:
      "An inbound email or chat message created a request, answered its pending clarification, appealed its refusal (`appeal_filed`, with `appealId`), or was recorded on its timeline as a reply (`senderVerified: false` when it is not taken as the requester's; `appealUnconfirmed` when it would have been an appeal). Keyed by the request id.",
  },
  {
    type: IntakeEventTypes.messageIgnored,
    topic: Topics.intake,
    schema: inboundMessageIgnoredV1,
    producer: 'intake-gateway',
    description:
      'An inbound email or chat message was not taken as intake (not a request, an automatic reply, a bounce, bulk mail, a bot message, …). Keyed by `tenant:<tenantId>`: it concerns no request.',
  },
];
