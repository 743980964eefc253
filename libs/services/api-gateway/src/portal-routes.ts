import { DELIVERY_LINK_HEADER, type ErrorName, PORTAL_SESSION_HEADER, portalCodeCommand, portalDelivery, portalSession } from '@dsar/contracts';
import { type GatewayRoute, PUBLIC } from './route-types';

/** Errors of every call about a link: it must be known and its credential right, and not past its time. */
const LINK: ErrorName[] = ['DELIVERY_LINK_INVALID', 'DELIVERY_LINK_EXPIRED'];
const PUBLIC_LINK =
  "Public: no bearer token. The link's credential, which the person received by email, lets the call through; calls are limited per client address (PORTAL_RATE_LIMIT_PER_MINUTE, default 60 a minute; docs/delivery.md).";
const PUBLIC_SESSION = `Public: no bearer token. The session the link's code answered (\`${PORTAL_SESSION_HEADER}\`) lets the call through; calls are limited per client address (PORTAL_RATE_LIMIT_PER_MINUTE; docs/delivery.md).`;
const credentialHeader = { [DELIVERY_LINK_HEADER]: { required: true, description: 'The credential of the link: the part of its fragment after the dot (`#<linkId>.<credential>`).' } };

/**
 * The person's download page (`/portal/`, docs/delivery.md): a delivery by email sends the person a link to the page
 * and, separately, an 8-digit code; these are the calls the page makes. Served by fulfilment-delivery, whose link is
 * a step-up challenge issued for the person.
 */
export const PORTAL_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'GET',
    path: '/portal/deliveries/:linkId',
    service: 'fulfilment-delivery',
    permission: PUBLIC,
    portal: { description: PUBLIC_LINK },
    operationId: 'getPortalDelivery',
    summary: 'What a download link gives, before its code',
    description:
      "The request's short reference, the language of the page, when the link expires, and what it can do now: ask for its code (`code_required`, with `attemptsLeft`), nothing more after too many wrong codes (`locked`), or nothing more once its code was entered (`used`). No personal data. An unknown link, or a wrong credential: 404 `SVC-BE-1217` (the two look the same). Past its 24 hours or replaced by a newer link (or by a step-up challenge of the API): 410 `SVC-BE-1218`. Reads only.",
    tag: 'Download page',
    passHeaders: credentialHeader,
    response: { status: 200, schema: portalDelivery, description: 'The link.' },
    errors: LINK,
  },
  {
    method: 'POST',
    path: '/portal/deliveries/:linkId/code',
    service: 'fulfilment-delivery',
    permission: PUBLIC,
    portal: { description: PUBLIC_LINK },
    operationId: 'enterPortalCode',
    summary: "Enter a download link's one-time code",
    description:
      "The code from the second email completes the link, once: the answer holds a session (shown only here) that opens the link's files until the link expires, and the list of files. A wrong code: 401 `SVC-BE-1214`, counted against the link (also when sent at once); the one that reaches STEP_UP_MAX_FAILURES (default 5) locks it, and every try after it is 403 `SVC-BE-1215`. A link whose code was entered before: 409 `SVC-BE-1219`. A request no longer fulfilled: 409 `SVC-BE-1401`. Every try is in the delivery log, and published as `dsar.delivery.step_up_completed.v1` or `dsar.delivery.step_up_failed.v1`.",
    tag: 'Download page',
    passHeaders: credentialHeader,
    body: portalCodeCommand,
    response: { status: 200, schema: portalSession, description: 'The session and the files.' },
    errors: [
      'REQUEST_VALIDATION_FAILED',
      ...LINK,
      'STEP_UP_TOKEN_INVALID',
      'STEP_UP_LOCKED',
      'DELIVERY_LINK_USED',
      'LIFECYCLE_TRANSITION_DISALLOWED',
      'DELIVERY_NOTHING_TO_DELIVER',
      'IDEMPOTENCY_KEY_INVALID',
    ],
    idempotencyExempt: 'Its answer is a session, stored only as its SHA-256, and a link opens once: a retry after a lost answer is a 409, and the person asks for a new link.',
  },
  {
    method: 'GET',
    path: '/portal/deliveries/:linkId/artifacts/:artifactId',
    service: 'fulfilment-delivery',
    permission: PUBLIC,
    portal: { description: PUBLIC_SESSION },
    operationId: 'downloadPortalArtifact',
    summary: 'Download a file of a download link',
    description: `The bytes of one of the link's files, decrypted as they stream, with \`Content-Disposition\` (RFC 6266), \`ETag\` (its sha256), \`Range\`, \`If-Range\` and \`If-None-Match\` (304). Only with \`${PORTAL_SESSION_HEADER}\`: missing or wrong, 401 \`SVC-BE-1214\`; past the link's expiry, or the link replaced since, 410 \`SVC-BE-1218\`; an unknown link 404 \`SVC-BE-1217\`, a file not of the link 404. Each download that serves bytes is in the delivery log and published as \`dsar.delivery.artifact_delivered.v1\`, as a download through the API's step-up gate is.`,
    tag: 'Download page',
    passHeaders: { [PORTAL_SESSION_HEADER]: { required: true, description: "The session the link's code answered (`POST …/code`)." } },
    download: { status: 200, description: "The file's bytes (the whole file, or with `Range` one part, 206), as `application/octet-stream`.", headers: {} },
    errors: [...LINK, 'RESOURCE_NOT_FOUND', 'STEP_UP_TOKEN_INVALID', 'LIFECYCLE_TRANSITION_DISALLOWED', 'MANIFEST_ARTIFACT_DOWNLOAD_FAILED'],
  },
];
