import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { chatWebhookEvent, mailWebhookEnvelope, SLACK_WEBHOOK_HEADERS, STANDARD_WEBHOOK_HEADERS, SVIX_WEBHOOK_HEADERS } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import { ProblemError } from '@dsar/platform/errors';
import { jsonDeeperThan, MAX_JSON_DEPTH, parseInput, type SignatureFailure, type SignatureHeaders, signatureTime, tooDeepProblem, verifyDelivery } from '@dsar/platform/http';
import { readChatEvent, readMailEvent, routeOfChat, routeOfMail } from '../domain/inbound-message';
import { verifySlackSignature } from '../domain/slack-signature';
import { WEBHOOK_SETTINGS, type WebhookSettings } from '../webhook-settings';
import { type InboundAnswer, InboundIntake } from './inbound-intake';

const single = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The Standard Webhooks headers of a delivery: the `webhook-*` set, or the `svix-*` set when it has no `webhook-id` (never a mix). */
function standardHeadersOf(headers: IncomingHttpHeaders): SignatureHeaders {
  const names = headers[STANDARD_WEBHOOK_HEADERS.id] !== undefined ? STANDARD_WEBHOOK_HEADERS : SVIX_WEBHOOK_HEADERS;
  return { id: single(headers[names.id]), timestamp: single(headers[names.timestamp]), signature: single(headers[names.signature]) };
}

/** A signature that did not verify, as the problem answered: 401 either way, the timestamp's case told apart (it is no secret). */
function refusal(failure: SignatureFailure, provider: string): ProblemError {
  if (failure === 'timestamp_invalid' || failure === 'timestamp_out_of_tolerance') {
    return new ProblemError('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', `The ${provider} delivery's signed timestamp is missing its seconds or more than 5 minutes from our time.`);
  }
  return new ProblemError(
    'WEBHOOK_SIGNATURE_INVALID',
    failure === 'signature_missing' ? `The ${provider} delivery carries no complete signature.` : `The ${provider} delivery's signature matches no configured secret.`,
  );
}

/** The delivery's JSON: a 400 for bytes that are not one JSON value (after the signature was checked over them as they are). */
function jsonOf(body: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new ProblemError('REQUEST_BODY_INVALID_JSON', 'The delivery is not valid JSON.');
  }
  if (jsonDeeperThan(value, MAX_JSON_DEPTH)) throw tooDeepProblem();
  return value;
}

/**
 * The inbound webhooks (docs/webhooks.md). Each delivery is checked in this
 * order: the webhook is configured (404), the signature over the exact bytes
 * and its timestamp within 5 minutes of the machine's time (401), the JSON and
 * its shape (400), the route (422); only then is anything stored. Signature
 * checks read real time, not the domain's clock (docs/adr/0019).
 */
@Injectable()
export class InboundWebhooks {
  private readonly log = new Logger('InboundWebhooks');

  constructor(
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    private readonly intake: InboundIntake,
    private readonly clock: Clock,
  ) {}

  async mail(headers: IncomingHttpHeaders, body: Buffer): Promise<InboundAnswer> {
    if (this.settings.mailKeys.length === 0) throw new ProblemError('WEBHOOK_NOT_CONFIGURED', 'The mail webhook is off: MAIL_WEBHOOK_SECRET is not configured.');
    const signed = standardHeadersOf(headers);
    const failure = verifyDelivery(this.settings.mailKeys, signed, body, Math.floor(signatureTime() / 1000));
    if (failure) throw refusal(failure, 'email');
    const message = readMailEvent(parseInput(mailWebhookEnvelope, jsonOf(body)), signed.id as string);
    const route = routeOfMail(this.settings.mailRoutes, message.recipients);
    if (!route) {
      // No address, subject or words in the log: the delivery's id and how many recipients it had.
      this.log.warn(
        { surface: message.surface, provider: message.provider, deliveryId: message.deliveryId, recipients: message.recipients.length },
        'inbound email refused: none of its recipients is a mailbox of INBOUND_ROUTES',
      );
      throw new ProblemError('WEBHOOK_ROUTE_UNKNOWN', `None of the email's ${message.recipients.length} recipients is a mailbox of INBOUND_ROUTES.`);
    }
    return this.intake.receive(message, route, createHash('sha256').update(body).digest('hex'));
  }

  async chat(headers: IncomingHttpHeaders, body: Buffer): Promise<InboundAnswer> {
    const secret = this.settings.slackSigningSecret;
    if (!secret) throw new ProblemError('WEBHOOK_NOT_CONFIGURED', 'The chat webhook is off: SLACK_SIGNING_SECRET is not configured.');
    const failure = verifySlackSignature(secret, { signature: single(headers[SLACK_WEBHOOK_HEADERS.signature]), timestamp: single(headers[SLACK_WEBHOOK_HEADERS.timestamp]) }, body, signatureTime());
    if (failure) throw refusal(failure, 'Slack');
    const event = parseInput(chatWebhookEvent, jsonOf(body));
    // Slack checks the URL before it sends events: the challenge back, signed like any request.
    if (event.type === 'url_verification') return { status: 200, body: { challenge: event.challenge }, replayed: false };
    const message = readChatEvent(event, this.clock.now());
    const route = routeOfChat(this.settings.slackRoutes, event.team_id, message.chat?.channelId ?? null);
    if (!route) {
      this.log.warn(
        { surface: message.surface, deliveryId: message.deliveryId, teamId: event.team_id, channelId: message.chat?.channelId ?? null },
        'inbound Slack event refused: its team and channel have no route in INBOUND_ROUTES',
      );
      throw new ProblemError('WEBHOOK_ROUTE_UNKNOWN', `Slack team ${event.team_id}${message.chat?.channelId ? ` channel ${message.chat.channelId}` : ''} has no route in INBOUND_ROUTES.`);
    }
    const retry = single(headers[SLACK_WEBHOOK_HEADERS.retryNum]);
    if (retry) this.log.debug({ deliveryId: message.deliveryId, retry, reason: single(headers[SLACK_WEBHOOK_HEADERS.retryReason]) }, 'Slack retried an event');
    return this.intake.receive(message, route, createHash('sha256').update(body).digest('hex'));
  }
}
