import { chatWebhookAnswer, chatWebhookEvent, type ErrorName, mailWebhookAccepted, mailWebhookEvent, SLACK_WEBHOOK_HEADERS, STANDARD_WEBHOOK_HEADERS, SVIX_WEBHOOK_HEADERS } from '@dsar/contracts';
import type { GatewayRoute, PassedHeader } from './route-types';

/** Errors of every webhook: its signature, its route, and a repetition that arrives while the first is being handled. */
const WEBHOOK_ERRORS: ErrorName[] = ['WEBHOOK_SIGNATURE_INVALID', 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', 'WEBHOOK_ROUTE_UNKNOWN', 'WEBHOOK_NOT_CONFIGURED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];

const optional = (description: string): PassedHeader => ({ required: false, description });

/** The Standard Webhooks headers, under both their names: `webhook-*`, or `svix-*` (Resend sends these) when there is no `webhook-id`. */
const STANDARD_HEADERS: Record<string, PassedHeader> = {
  [STANDARD_WEBHOOK_HEADERS.id]: optional("The delivery's id (Standard Webhooks). A delivery repeated with the same id is answered with the first answer and changes nothing."),
  [STANDARD_WEBHOOK_HEADERS.timestamp]: optional("When the delivery was signed, in Unix seconds; more than 5 minutes from the service's time is a 401 `SVC-BE-1602`."),
  [STANDARD_WEBHOOK_HEADERS.signature]: optional(
    '`v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<body>` with a `whsec_` secret of `MAIL_WEBHOOK_SECRET`; several, space-separated, while secrets rotate.',
  ),
  [SVIX_WEBHOOK_HEADERS.id]: optional('`webhook-id` as Svix and Resend name it; read when `webhook-id` is absent.'),
  [SVIX_WEBHOOK_HEADERS.timestamp]: optional('`webhook-timestamp` as Svix and Resend name it.'),
  [SVIX_WEBHOOK_HEADERS.signature]: optional('`webhook-signature` as Svix and Resend name it.'),
};

/** Public routes of intake-gateway: the inbound email and chat webhooks (docs/webhooks.md). */
/** Why a webhook takes no Idempotency-Key: it has no caller to keep a key for, and the provider's own ids recognize a redelivery. */
const WEBHOOK_REDELIVERY = "A provider's webhook has no caller to keep a key for: a redelivery is recognized by the provider's message or event id (docs/webhooks.md).";

export const WEBHOOK_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'POST',
    path: '/webhooks/inbound/mail',
    service: 'intake-gateway',
    permission: 'public',
    operationId: 'receiveInboundMail',
    summary: 'Receive an email from the email provider',
    description:
      "Called by the email provider (Resend, or any relay sending the generic shape) for each email a routed mailbox receives; no bearer token, the Standard Webhooks signature instead (`webhook-*` or `svix-*` headers, a `whsec_` secret of `MAIL_WEBHOOK_SECRET`, 5 minutes either way). The email is routed by its recipients (`INBOUND_ROUTES`: tenant, workspace, default jurisdiction) and classified: a data subject request becomes a new request (`intakeSource.channel` `email`, `receivedAt` the provider's, the legal clock counting from it); a reply in the thread of a request, or one quoting its tagged reference (`DSAR-1A2B3C4D-7K3QX9M2TR4VB`, from the notifier's emails) in the subject, is matched to it: the answer to a pending clarification when it comes from the request's own address, an appeal against a refusal where the request's pack gives one (docs/webhooks.md#appeals-by-reply), else an entry on its timeline (`senderVerified: false` from any other address, for an operator to confirm); anything else is ignored (`ignored_non_dsar`). Event types other than `email.received` are acknowledged and ignored. A repeated delivery id gets the first answer (`Idempotent-Replayed: true`). Emits `dsar.intake.message_captured.v1` or `dsar.intake.message_ignored.v1`.",
    tag: 'Webhooks',
    webhook: {
      description: "The provider's event as it signed it: `{created_at, type, data}`, sent as `application/json`, passed on byte for byte.",
      body: mailWebhookEvent,
      headers: STANDARD_HEADERS,
    },
    response: { status: 202, schema: mailWebhookAccepted, description: 'Captured (a request was created or matched) or ignored.' },
    errors: WEBHOOK_ERRORS,
    idempotencyExempt: WEBHOOK_REDELIVERY,
  },
  {
    method: 'POST',
    path: '/webhooks/inbound/chat',
    service: 'intake-gateway',
    permission: 'public',
    operationId: 'receiveInboundChat',
    summary: 'Receive an event from Slack',
    description:
      "The request URL of a Slack app's Event Subscriptions; no bearer token, Slack's request signature instead (`X-Slack-Signature`, `X-Slack-Request-Timestamp`, 5 minutes either way, checked with `@slack/bolt`). A `url_verification` is answered with its `challenge`. A message event of a routed team (and channel) is classified like an email: a request is captured (`reason` `matched_subject_request`), a reply in a request's thread or one quoting its tagged reference is matched to it (`matched_thread`, `matched_reference`; only the requester's own Slack user answers a pending clarification), anything else is answered with `status` `ignored_non_dsar` and its `reason`; bots' messages, edits and deletions are ignored. Slack's retries (`X-Slack-Retry-Num`) carry the same `event_id` and get the first answer.",
    tag: 'Webhooks',
    webhook: {
      description: "Slack's Events API request as it signed it, sent as `application/json`, passed on byte for byte.",
      body: chatWebhookEvent,
      headers: {
        [SLACK_WEBHOOK_HEADERS.signature]: optional('`v0=<hex HMAC-SHA256>` over `v0:<timestamp>:<body>` with `SLACK_SIGNING_SECRET`.'),
        [SLACK_WEBHOOK_HEADERS.timestamp]: optional("When Slack sent the request, in Unix seconds; more than 5 minutes from the service's time is a 401 `SVC-BE-1602`."),
        [SLACK_WEBHOOK_HEADERS.retryNum]: optional('Set by Slack on a retry (1, 2, 3); the retry gets the first answer.'),
        [SLACK_WEBHOOK_HEADERS.retryReason]: optional('Why Slack retried (`http_timeout`, `http_error`, …).'),
      },
    },
    response: { status: 200, schema: chatWebhookAnswer, description: 'The challenge of a URL verification, or what became of the event.' },
    errors: WEBHOOK_ERRORS,
    idempotencyExempt: WEBHOOK_REDELIVERY,
  },
];
