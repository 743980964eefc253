import { type ChatWebhookEvent, genericInboundEmail, type InboundProvider, type InboundReason, type InboundSurface, resendEmailReceived } from '@dsar/contracts';
import type { z } from 'zod';
import { ProblemError } from '@dsar/platform/errors';
import { fieldProblems } from '@dsar/platform/http';
import type { MailRoute, SlackRoute } from '../webhook-settings';
import { addressOf, htmlToText, messageIdsOf } from './mail-text';
import type { InboundText } from './message-classifier';

/**
 * An inbound email or chat message as intake handles it, whatever its
 * provider's shape (docs/webhooks.md): the ids, the time, what the classifier
 * reads, how to reach the sender, and the thread it belongs to.
 */
export interface InboundMessage {
  surface: InboundSurface;
  provider: InboundProvider;
  /** The provider's id of the delivery: `webhook-id`/`svix-id`, or Slack's `event_id`. Repetitions share it. */
  deliveryId: string;
  /** The provider's id of the message: Resend's `email_id`, the generic `messageId`, Slack's `ts`. */
  sourceId: string | null;
  /** When the provider received the message: where the legal clock starts. */
  receivedAt: Date;
  /** What the classifier reads. */
  content: InboundText;
  /** Set when the message is not read at all: a bot's message, an edit, an event intake does not take. */
  skip?: InboundReason;
  /** How to reach the sender on the channel: an email address, a Slack user link. */
  contact?: string;
  /** Thread identities, unhashed: the message's own, and the ones it answers (In-Reply-To, References, Slack thread). */
  thread: { own?: string; answers: string[] };
  /** Where a request reference (`DSAR-1A2B3C4D-7K3QX9M2TR4VB`, or the short `DSAR-1A2B3C4D`) is looked for: an email's subject, a chat message's text. */
  referenceText: string;
  /** The evidence reference of the message, for the request it creates. */
  evidence: { type: 'email_message' | 'chat_message'; reference: string };
  /** The recipients a mail is routed by (envelope recipients first). */
  recipients: string[];
  /** Slack's team, channel and event ids, for routing and the answer. */
  chat?: { teamId: string; channelId: string | null; callbackId: string };
}

/** The mail event intake reads; any other type is acknowledged and ignored (`unsupported_event`). */
export const MAIL_RECEIVED_TYPE = 'email.received';
/** The Slack events intake reads as messages. */
const CHAT_MESSAGE_EVENTS = new Set(['message', 'app_mention']);
/** Message subtypes that are still a person's message (a file with a comment, a thread reply also posted to the channel). */
const PERSON_SUBTYPES = new Set(['file_share', 'thread_broadcast']);

/** The event's `data` against its shape: a 400 REQUEST_VALIDATION_FAILED naming each `data.…` field that does not fit. */
function parseData<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  const errors = fieldProblems(result.error.issues, 'data');
  throw new ProblemError('REQUEST_VALIDATION_FAILED', `The email event does not fit its shape: ${errors.map((e) => e.field).join(', ')}.`, errors);
}

/** Header values by lower-case name, lists joined as one header would hold them. */
function headersOf(given: Record<string, string | string[]> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(given ?? {}).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]));
}

const list = (value: string | readonly string[] | undefined): string[] => (value === undefined ? [] : typeof value === 'string' ? value.split(',') : [...value]);
const bareId = (id: string): string => id.trim().replace(/^<|>$/g, '');
const mailThreadKey = (messageId: string): string => `mail:${bareId(messageId)}`;

/** A mail's text: the text part, else the readable text of its HTML. */
const bodyOf = (text: string | undefined, html: string | undefined): string => (text && text.trim() !== '' ? text : html ? htmlToText(html) : '');

/**
 * The message of a mail event. `email.received` in Resend's shape (`data.email_id`) or the generic one
 * (`data.messageId`) is read in full (a 400 names each field that does not fit); any other event type only for its
 * recipients, so that it can be routed and recorded as ignored.
 */
export function readMailEvent(event: { created_at: string; type: string; data: unknown }, deliveryId: string): InboundMessage {
  const data = event.data !== null && typeof event.data === 'object' && !Array.isArray(event.data) ? (event.data as Record<string, unknown>) : {};
  if (event.type !== MAIL_RECEIVED_TYPE) return unsupportedMail(event, data, deliveryId);
  if ('email_id' in data) {
    const d = parseData(resendEmailReceived, event.data);
    const headers = headersOf(d.headers);
    const messageId = d.message_id ?? headers['message-id'];
    return {
      surface: 'inbound_mail',
      provider: 'resend',
      deliveryId,
      sourceId: d.email_id,
      receivedAt: new Date(d.created_at ?? event.created_at),
      content: { subject: d.subject, text: bodyOf(d.text, d.html), from: d.from, headers },
      ...contactOf(d.from),
      thread: { ...(messageId ? { own: mailThreadKey(messageId) } : {}), answers: [...messageIdsOf(headers['in-reply-to']), ...messageIdsOf(headers['references'])].map(mailThreadKey) },
      referenceText: d.subject,
      evidence: { type: 'email_message', reference: `resend:email:${d.email_id}` },
      recipients: [...(d.received_for ?? []), ...d.to, ...(d.cc ?? []), ...(d.bcc ?? [])],
    };
  }
  const d = parseData(genericInboundEmail, event.data);
  return {
    surface: 'inbound_mail',
    provider: 'generic',
    deliveryId,
    sourceId: d.messageId,
    receivedAt: new Date(event.created_at),
    content: { subject: d.subject, text: bodyOf(d.text, d.html), from: d.from, headers: headersOf(d.headers) },
    ...contactOf(d.from),
    thread: { own: mailThreadKey(d.messageId), answers: [...messageIdsOf(d.inReplyTo), ...messageIdsOf(d.references)].map(mailThreadKey) },
    referenceText: d.subject,
    evidence: { type: 'email_message', reference: `message-id:<${bareId(d.messageId)}>` },
    recipients: [...list(d.to), ...list(d.cc)],
  };
}

function unsupportedMail(event: { created_at: string; type: string }, data: Record<string, unknown>, deliveryId: string): InboundMessage {
  const strings = (v: unknown): string[] => (typeof v === 'string' ? list(v) : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const sourceId = typeof data.email_id === 'string' ? data.email_id : typeof data.messageId === 'string' ? data.messageId : null;
  return {
    surface: 'inbound_mail',
    provider: typeof data.messageId === 'string' ? 'generic' : 'resend',
    deliveryId,
    sourceId,
    receivedAt: new Date(event.created_at),
    content: { text: '' },
    skip: 'unsupported_event',
    thread: { answers: [] },
    referenceText: '',
    evidence: { type: 'email_message', reference: sourceId ?? deliveryId },
    recipients: [...strings(data.received_for), ...strings(data.to)],
  };
}

function contactOf(from: string): { contact?: string } {
  const address = addressOf(from);
  return address ? { contact: address } : {};
}

/** A Slack message's text as a person reads it: mentions dropped, links as their label, Slack's three escapes decoded. */
function slackText(text: string): string {
  return text
    .replace(/<[@#!][^>]*>/g, ' ')
    .replace(/<([^|>]+)\|([^>]*)>/g, '$2')
    .replace(/<([^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Unix seconds with a fraction (`1712345678.000200`) as an instant. */
function instantOfSeconds(ts: string | number): Date | undefined {
  const seconds = typeof ts === 'number' ? ts : Number(ts);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(Math.floor(seconds * 1000)) : undefined;
}

/** Why a Slack event is not read as a person's message, if it is not. */
function skipOf(event: Extract<ChatWebhookEvent, { type: 'event_callback' }>['event']): InboundReason | undefined {
  if (!CHAT_MESSAGE_EVENTS.has(event.type)) return 'unsupported_event';
  if (event.bot_id !== undefined || event.subtype === 'bot_message') return 'bot_message';
  if (event.subtype === 'message_changed') return 'message_edited';
  if (event.subtype === 'message_deleted') return 'message_deleted';
  if (event.subtype !== undefined && !PERSON_SUBTYPES.has(event.subtype)) return 'unsupported_event';
  if (!event.user) return 'unsupported_event';
  return undefined;
}

/**
 * The message of a Slack `event_callback`. Messages of people (and mentions of the app) are read; bots' messages,
 * edits, deletions and other events are kept only to be recorded as ignored. `now` stands in for the time of an
 * event that names none.
 */
export function readChatEvent(callback: Extract<ChatWebhookEvent, { type: 'event_callback' }>, now: Date): InboundMessage {
  const { event } = callback;
  const teamId = callback.team_id;
  const channelId = event.channel ?? null;
  const skip = skipOf(event);
  const text = skip ? '' : slackText(event.text ?? '');
  const key = (ts: string) => `slack:${teamId}:${channelId ?? '-'}:${ts}`;
  return {
    surface: 'inbound_chat',
    provider: 'slack',
    deliveryId: callback.event_id,
    sourceId: event.ts ?? null,
    receivedAt: (event.ts && instantOfSeconds(event.ts)) || (callback.event_time !== undefined && instantOfSeconds(callback.event_time)) || now,
    content: { text },
    ...(skip ? { skip } : {}),
    ...(event.user ? { contact: `slack://user?team=${teamId}&id=${event.user}` } : {}),
    thread: { ...(event.ts ? { own: key(event.ts) } : {}), answers: event.thread_ts && event.thread_ts !== event.ts ? [key(event.thread_ts)] : [] },
    referenceText: text,
    evidence: { type: 'chat_message', reference: `slack:${teamId}/${channelId ?? '-'}/${event.ts ?? callback.event_id}` },
    recipients: [],
    chat: { teamId, channelId, callbackId: callback.event_id },
  };
}

/** The route of the first recipient that is a routed mailbox (envelope recipients come first). */
export function routeOfMail(routes: readonly MailRoute[], recipients: readonly string[]): MailRoute | undefined {
  for (const recipient of recipients) {
    const address = addressOf(recipient);
    const route = address && routes.find((r) => r.mailbox === address);
    if (route) return route;
  }
  return undefined;
}

/** The route of the Slack channel, else of its team. */
export function routeOfChat(routes: readonly SlackRoute[], teamId: string, channelId: string | null): SlackRoute | undefined {
  return routes.find((r) => r.slackTeamId === teamId && channelId !== null && r.slackChannelId === channelId) ?? routes.find((r) => r.slackTeamId === teamId && r.slackChannelId === undefined);
}
