import {
  addressVerifyCommand,
  addressVerified,
  DELIVERY_TOKEN_HEADER,
  deliveredArtifact,
  deliveryLogs,
  deliveryPrepareCommand,
  deliveryPrepared,
  type ErrorName,
  stepUpChallenge,
  stepUpCompleteCommand,
  stepUpCompleted,
} from '@dsar/contracts';
import type { GatewayRoute } from './route-types';

const IDEMPOTENCY: ErrorName[] = ['IDEMPOTENCY_KEY_INVALID', 'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_REQUEST_IN_PROGRESS'];
/** Errors of every delivery route: the request must exist for the caller. */
const REQUEST: ErrorName[] = ['RESOURCE_NOT_FOUND'];
/** Errors of the steps that need a fulfilled request whose delivery was prepared. */
const PREPARED: ErrorName[] = [...REQUEST, 'LIFECYCLE_TRANSITION_DISALLOWED', 'DELIVERY_NOTHING_TO_DELIVER'];
/** Errors of a token check. */
const TOKEN: ErrorName[] = ['STEP_UP_TOKEN_INVALID', 'STEP_UP_LOCKED'];

/** Public routes of fulfilment-delivery: the delivery of fulfilled data: preparation, address check, the step-up gate, gated downloads and the delivery logs (docs/fulfilment.md). */
export const DELIVERY_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'POST',
    path: '/requests/:id/delivery/prepare',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'prepareDelivery',
    summary: 'Prepare the delivery of a fulfilled request',
    description:
      'Records how the fulfilled data goes to the data subject: the channel (`portal`, `email`, `secure_remote_access`) and the security level (`standard`, `token`). Only for a `fulfilled` request (else 409 `SVC-BE-1401`) whose approved manifest has at least one artifact (else 409 `SVC-BE-1211`); `artifacts` lists every artifact the delivery hands out (the current version of each, under its display name), `artifactId` is the first of them. Preparing again replaces the channel and level. Every download goes through the step-up gate whatever the level. Emits `dsar.delivery.prepared.v1`.',
    tag: 'Delivery',
    body: deliveryPrepareCommand,
    response: { status: 202, schema: deliveryPrepared, description: 'Delivery is prepared.' },
    errors: ['REQUEST_VALIDATION_FAILED', ...PREPARED, ...IDEMPOTENCY],
  },
  {
    method: 'POST',
    path: '/requests/:id/delivery/address/verify',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'verifyDeliveryAddress',
    summary: "Check an address against the requestor's known one",
    description:
      "Whether `email` is the requestor's known address (`requestor.email`, else `intakeSource.contact` when it is an email address), compared after trimming, Unicode NFC and lower-casing, in constant time; plus tags and dots are not folded (`jane+x@` is another address). Without `email`: whether a known address exists, answered masked (`j***@example.org`). Reads only; records nothing.",
    tag: 'Delivery',
    body: addressVerifyCommand,
    bodyOptional: true,
    response: { status: 200, schema: addressVerified, description: 'The outcome of the check.' },
    errors: ['REQUEST_VALIDATION_FAILED', 'IDEMPOTENCY_KEY_INVALID', ...REQUEST],
    idempotencyExempt: 'It reads only and records nothing: a retry answers the same.',
  },
  {
    method: 'POST',
    path: '/requests/:id/delivery/step-up/challenge',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'issueStepUpChallenge',
    summary: 'Issue a step-up challenge for the delivery',
    description:
      'Issues a random token (32 bytes, base64url) for the prepared delivery, valid for exactly 24 hours; it is shown only in this answer and stored as its SHA-256. A new challenge revokes the previous one (and unlocks a locked gate). Not idempotent: a retry issues a new token. Before delivery is prepared: 409 `SVC-BE-1211`. Emits `dsar.delivery.step_up_issued.v1`.',
    tag: 'Delivery',
    response: { status: 202, schema: stepUpChallenge, description: 'The token and when it expires.' },
    errors: ['IDEMPOTENCY_KEY_INVALID', ...PREPARED],
    idempotencyExempt: 'Its answer is the token, which is stored only as its SHA-256: it is never recorded for a replay, so each call issues a new token and revokes the previous one.',
  },
  {
    method: 'POST',
    path: '/requests/:id/delivery/step-up/complete',
    service: 'fulfilment-delivery',
    permission: 'requests:act',
    operationId: 'completeStepUpChallenge',
    summary: 'Complete the step-up challenge with its token',
    description:
      'The token the data subject received completes the current challenge; it then opens the downloads until it expires. Completing again answers 202 too. A wrong, foreign or expired token, or no challenge: 401 `SVC-BE-1214`. Wrong tokens are counted per challenge (also when sent at once): the one that reaches STEP_UP_MAX_FAILURES (default 5) locks the challenge, and every try after it, the right token included, is 403 `SVC-BE-1215` until a new challenge is issued. Emits `dsar.delivery.step_up_completed.v1` or `dsar.delivery.step_up_failed.v1`.',
    tag: 'Delivery',
    body: stepUpCompleteCommand,
    response: { status: 202, schema: stepUpCompleted, description: 'The challenge is completed.' },
    errors: ['REQUEST_VALIDATION_FAILED', ...REQUEST, 'LIFECYCLE_TRANSITION_DISALLOWED', ...TOKEN, ...IDEMPOTENCY],
  },
  {
    method: 'GET',
    path: '/requests/:id/artifacts/:artifactId/download',
    service: 'fulfilment-delivery',
    permission: 'artifacts:read',
    operationId: 'downloadDeliveredArtifact',
    summary: 'Download a delivered artifact through the step-up gate',
    description: `Only for a caller that may download artifacts (\`artifacts:read\`: operators and admins; an auditor or intake key is refused with 403 whatever token it holds), and only with \`${DELIVERY_TOKEN_HEADER}\`: the token of the request's current step-up challenge, completed and unexpired. Without it, or with any other token (wrong, of another request, replaced, not completed, expired): 401 \`SVC-BE-1214\`; with the token of a locked challenge: 403 \`SVC-BE-1215\`; nothing is served. Past DOWNLOAD_REFUSALS_PER_HOUR (default 10) refused downloads of the request in an hour, the caller's refused downloads are 429 \`SVC-BE-1004\` with \`Retry-After\` (the right token is still served). By default the artifact's metadata (JSON) with a \`download\` hint; with \`Accept: application/octet-stream\` its bytes, decrypted as they stream, with \`Content-Disposition\` (RFC 6266), \`ETag\` (its sha256), \`Range\`, \`If-Range\` and \`If-None-Match\` (304). Every download that serves something is recorded in the delivery log and as \`dsar.delivery.artifact_delivered.v1\`; a refusal as \`dsar.delivery.step_up_failed.v1\`, and the same refusal repeated by the same caller only counts in its log entry.`,
    tag: 'Delivery',
    passHeaders: {
      [DELIVERY_TOKEN_HEADER]: { required: true, description: 'The completed step-up token of this request (`POST …/delivery/step-up/challenge`, then `…/complete`).' },
    },
    response: { status: 200, schema: deliveredArtifact, description: "The artifact's metadata, as JSON (the default)." },
    file: {
      status: 200,
      mediaTypes: ['application/octet-stream'],
      description: "The artifact's bytes (the whole file, or with `Range` one part, 206); its own media type is `contentType` of the metadata.",
      headers: {},
      ranges: true,
    },
    errors: [...REQUEST, 'LIFECYCLE_TRANSITION_DISALLOWED', ...TOKEN, 'MANIFEST_ARTIFACT_DOWNLOAD_FAILED'],
  },
  {
    method: 'GET',
    path: '/requests/:id/delivery/logs',
    service: 'fulfilment-delivery',
    permission: 'requests:read',
    operationId: 'getDeliveryLogs',
    summary: 'The delivery log of a request',
    description:
      'Every try of a delivery step, grouped by delivery event type in the order each first happened: preparations, challenges issued, completions, refused tokens (at completion and at download) and downloads. `eventType` is the public name of the event type (`delivery_prepared` for the CloudEvents type `dsar.delivery.prepared.v1`, which stays on Kafka); `eventId` is the newest event of the type; each attempt is `{attempt, at, outcome, actor, detail}` (outcomes: docs/fulfilment.md#delivery). Retention class `delivery_log`.',
    tag: 'Delivery',
    response: { status: 200, schema: deliveryLogs, description: 'The log; empty when nothing was tried (or it was purged).' },
    errors: REQUEST,
  },
];
