import { z } from 'zod';
import { timestamp } from './fields';

/**
 * HTTP contracts of the inbound webhooks (docs/webhooks.md): the public routes
 * an email provider and Slack call, what they send, and what intake answers.
 * The routes are authenticated by the providers' signatures, not by tokens.
 */

/** Standard Webhooks (standardwebhooks.com): the headers of a signed delivery. */
export const STANDARD_WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;
/** The same headers as Svix (and so Resend) names them. */
export const SVIX_WEBHOOK_HEADERS = { id: 'svix-id', timestamp: 'svix-timestamp', signature: 'svix-signature' } as const;
/** Slack's request signing, and the headers of its retries. */
export const SLACK_WEBHOOK_HEADERS = {
  signature: 'x-slack-signature',
  timestamp: 'x-slack-request-timestamp',
  retryNum: 'x-slack-retry-num',
  retryReason: 'x-slack-retry-reason',
} as const;

/** Where an inbound message came in: the email webhook or the chat webhook. */
export const INBOUND_SURFACES = ['inbound_mail', 'inbound_chat'] as const;
export type InboundSurface = (typeof INBOUND_SURFACES)[number];

/** Which payload shape it had: Resend's `email.received`, the documented generic email, or Slack's Events API. */
export const INBOUND_PROVIDERS = ['resend', 'generic', 'slack'] as const;
export type InboundProvider = (typeof INBOUND_PROVIDERS)[number];

/** `captured`: a request was created or the message was matched to one; `ignored_non_dsar`: the message is not treated as intake. */
export const INBOUND_STATUSES = ['captured', 'ignored_non_dsar'] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];

/** What a captured message did to its request: created it, answered its pending clarification, appealed its refusal, or joined its timeline. */
export const CAPTURE_OUTCOMES = ['created', 'clarification_received', 'appeal_filed', 'reply_recorded'] as const;
export type CaptureOutcome = (typeof CAPTURE_OUTCOMES)[number];
/** What intake did with a message: one of the capture outcomes, or nothing. */
export const INBOUND_OUTCOMES = [...CAPTURE_OUTCOMES, 'ignored'] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/**
 * Why intake captured or ignored a message (docs/webhooks.md#what-each-message-becomes).
 * Captured: `matched_subject_request` (it reads as a data subject request: a new
 * request), `matched_thread` (a reply in the thread of a request),
 * `matched_reference` (it quotes a request's reference, `DSAR-1A2B3C4D-7K3QX9M2TR4VB`; docs/webhooks.md#replies).
 * Ignored: the classifier's reasons (`not_a_request`, `empty_message`, `bounce`,
 * `auto_reply`, `bulk_mail`, `spam`, `informational`), and for chat
 * `bot_message`, `message_edited`, `message_deleted`; `unsupported_event` for an
 * event intake does not read (an email event other than `email.received`, a
 * Slack event other than a message).
 */
export const INBOUND_REASONS = [
  'matched_subject_request',
  'matched_thread',
  'matched_reference',
  'not_a_request',
  'empty_message',
  'bounce',
  'auto_reply',
  'bulk_mail',
  'spam',
  'informational',
  'bot_message',
  'message_edited',
  'message_deleted',
  'unsupported_event',
] as const;
export type InboundReason = (typeof INBOUND_REASONS)[number];

/** An address list as email payloads give it: one string (`a@x, b@y` allowed) or an array. */
const addresses = z.union([z.string(), z.array(z.string())]);
/** Mail headers by name, where a payload carries them (values as sent). */
const mailHeaders = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/**
 * `data` of Resend's `email.received` event. The event itself carries no body:
 * `text`, `html` and `headers` are read when present (a relay that adds the
 * answer of Resend's "get received email" to the event); without them only the
 * subject is read.
 */
export const resendEmailReceived = z
  .object({
    email_id: z.string().min(1).max(256).describe("Resend's id of the received email"),
    created_at: timestamp.optional().describe('When Resend received the email: the legal clock counts from here'),
    from: z.string().min(1).max(2048),
    to: z.array(z.string().max(2048)).max(500).default([]),
    cc: z.array(z.string().max(2048)).max(500).optional(),
    bcc: z.array(z.string().max(2048)).max(500).optional(),
    received_for: z.array(z.string().max(2048)).max(500).optional().describe('The envelope recipients; read first for routing'),
    message_id: z.string().max(998).optional().describe("The email's Message-ID header"),
    subject: z.string().default(''),
    text: z.string().optional(),
    html: z.string().optional(),
    headers: mailHeaders.optional(),
    attachments: z.array(z.unknown()).optional(),
  })
  .meta({ id: 'ResendEmailReceived' });
export type ResendEmailReceived = z.infer<typeof resendEmailReceived>;

/** `data` of the generic email shape: what any provider's relay can send (docs/webhooks.md#the-generic-shape). */
export const genericInboundEmail = z
  .object({
    from: z.string().min(1).max(2048).describe('The sender, `Name <address>` or an address'),
    to: addresses.describe('The recipients: the mailbox that routes the message is one of them'),
    cc: addresses.optional(),
    subject: z.string().default(''),
    text: z.string().default('').describe('The plain-text body; when empty, the text of `html` is read'),
    html: z.string().optional(),
    messageId: z.string().min(1).max(998).describe('The Message-ID header'),
    inReplyTo: z.string().max(998).optional().describe('The In-Reply-To header: the Message-ID of the message answered'),
    references: addresses.optional().describe('The References header: the Message-IDs of the thread'),
    headers: mailHeaders.optional().describe('Further headers by name (Auto-Submitted, Precedence, …); read by the classifier'),
  })
  .meta({ id: 'GenericInboundEmail' });
export type GenericInboundEmail = z.infer<typeof genericInboundEmail>;

/** The envelope of `POST /webhooks/inbound/mail` as intake parses it first: `data` is read by `type` and shape. */
export const mailWebhookEnvelope = z.object({
  created_at: timestamp.describe('When the provider created the event'),
  type: z.string().min(1).max(128).describe("The provider's event type; `email.received` is read, any other is acknowledged and ignored"),
  data: z.unknown(),
});

/** The body of `POST /webhooks/inbound/mail`, as published. */
export const mailWebhookEvent = mailWebhookEnvelope
  .extend({
    data: z.union([resendEmailReceived, genericInboundEmail]).describe("Resend's `email.received` data (with `email_id`) or the generic shape (with `messageId`)"),
  })
  .meta({ id: 'MailWebhookEvent' });

export const mailWebhookAccepted = z
  .object({
    id: z.uuid().describe('The request the email created or was matched to; for an ignored email, the id intake recorded it under'),
    jurisdiction: z.string().describe("The request's jurisdiction (a new request: the route's default)"),
    receivedAt: timestamp.describe('When the provider received the email (`data.created_at`, else `created_at`): the legal clock counts from here'),
    sourceId: z.string().describe("The provider's id of the email: Resend's `email_id`, or the generic shape's `messageId`"),
    status: z.enum(INBOUND_STATUSES),
    tenantId: z.string(),
    workspaceId: z.string().nullable(),
  })
  .meta({ id: 'MailWebhookAccepted' });
export type MailWebhookAccepted = z.infer<typeof mailWebhookAccepted>;

/** The message event of a Slack `event_callback`, as far as intake reads it. */
export const slackMessageEvent = z.object({
  type: z.string().min(1).describe('`message` and `app_mention` are read; any other event is ignored'),
  subtype: z.string().optional().describe('`bot_message`, `message_changed`, `message_deleted`, … are ignored'),
  channel: z.string().max(64).optional(),
  user: z.string().max(64).optional(),
  bot_id: z.string().optional(),
  text: z.string().optional(),
  ts: z.string().max(64).optional().describe("The message's id in its channel, and when it was posted (Unix seconds)"),
  thread_ts: z.string().max(64).optional().describe("The thread's first message; a reply in the thread of a request is matched to it"),
  team: z.string().max(64).optional(),
});

export const slackUrlVerification = z.object({ type: z.literal('url_verification'), challenge: z.string().min(1).max(2000), token: z.string().optional() }).meta({ id: 'SlackUrlVerification' });

export const slackEventCallback = z
  .object({
    type: z.literal('event_callback'),
    team_id: z.string().min(1).max(64),
    api_app_id: z.string().optional(),
    event_id: z.string().min(1).max(128).describe("Slack's id of the event: the same on every retry"),
    event_time: z.number().optional(),
    event: slackMessageEvent,
  })
  .meta({ id: 'SlackEventCallback' });

/** The body of `POST /webhooks/inbound/chat`: a request of Slack's Events API. */
export const chatWebhookEvent = z.discriminatedUnion('type', [slackUrlVerification, slackEventCallback]).meta({ id: 'ChatWebhookEvent' });
export type ChatWebhookEvent = z.infer<typeof chatWebhookEvent>;

export const chatWebhookAccepted = z
  .object({
    callbackId: z.string().describe("Slack's `event_id`"),
    channelId: z.string().nullable(),
    id: z.uuid().describe('The request the message created or was matched to; for an ignored message, the id intake recorded it under'),
    reason: z.enum(INBOUND_REASONS),
    sourceId: z.string().nullable().describe("The message's `ts`, its id in the channel"),
    status: z.enum(INBOUND_STATUSES),
    surface: z.literal('inbound_chat'),
    teamId: z.string(),
  })
  .meta({ id: 'ChatWebhookAccepted' });
export type ChatWebhookAccepted = z.infer<typeof chatWebhookAccepted>;

export const chatUrlVerified = z.object({ challenge: z.string().describe('The `challenge` Slack sent') }).meta({ id: 'ChatUrlVerified' });

export const chatWebhookAnswer = z.union([chatWebhookAccepted, chatUrlVerified]).meta({ id: 'ChatWebhookAnswer' });
