import { z } from 'zod';
import { artifactRecord } from './fulfilment';
import { timestamp } from './fields';
import { REQUEST_LOCALES } from './requests';

/**
 * The person's download page (`/portal/`, docs/delivery.md). For a delivery by email, the notifier sends the person a
 * link to the page, `…/portal/#<linkId>.<credential>`, and in a second email an 8-digit code. The link is a step-up
 * challenge of the delivery issued for the person: its credential names it, the code completes it, and the completion
 * answers a session that opens the downloads in that browser only. The credential travels in the URL's fragment, so it
 * never reaches a server log; the page sends it in a header.
 */

/** The link's credential, sent by the page with each call about the link. */
export const DELIVERY_LINK_HEADER = 'x-delivery-link';
/** The session a completed link answered, sent with each download. */
export const PORTAL_SESSION_HEADER = 'x-portal-session';
/** How many digits a link's code has. */
export const DELIVERY_CODE_LENGTH = 8;

/** The link's credential and a session: 32 random bytes (or their HMAC), base64url. */
const secret = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be 43 base64url characters');

/** What the notifier asks for (internal, `POST /internal/v1/requests/:id/delivery/link`): a link for one notification event. */
export const deliveryLinkIssueCommand = z
  .object({
    key: z.string().trim().min(1).max(200).describe('Names the link: the event the person is told about. Asking again with the same key answers the same link and code'),
    language: z.enum(REQUEST_LOCALES).optional().describe("The language the person's emails are written in: the page speaks it. Default: the request's language, else `en`"),
  })
  .strict();
export type DeliveryLinkIssueCommand = z.infer<typeof deliveryLinkIssueCommand>;

/** A link for the person, with its code: answered only to the notifier, which sends them in two messages. */
export const deliveryLinkIssued = z.object({
  requestId: z.uuid(),
  linkId: z.uuid(),
  credential: secret,
  code: z.string().regex(/^[0-9]{8}$/, 'must be 8 digits'),
  expiresAt: timestamp,
});
export type DeliveryLinkIssued = z.infer<typeof deliveryLinkIssued>;

/** What a link can do now: ask for its code, nothing (locked after too many wrong codes), or nothing more (used). */
export const PORTAL_LINK_STATES = ['code_required', 'locked', 'used'] as const;
export type PortalLinkState = (typeof PORTAL_LINK_STATES)[number];

/** `GET /portal/deliveries/:linkId`: what the page shows before the code. No personal data. */
export const portalDelivery = z
  .object({
    linkId: z.uuid(),
    reference: z.string().describe('The short reference of the request (`DSAR-1A2B3C4D`)'),
    language: z.enum(REQUEST_LOCALES).describe("The request's language, else the jurisdiction's, else `en`: the page speaks it"),
    expiresAt: timestamp,
    state: z.enum(PORTAL_LINK_STATES),
    attemptsLeft: z.number().int().nonnegative().describe('Wrong codes left before the link locks'),
  })
  .meta({ id: 'PortalDelivery' });
export type PortalDelivery = z.infer<typeof portalDelivery>;

/** `POST /portal/deliveries/:linkId/code`. Spaces and dashes the person typed are the page's to remove. */
export const portalCodeCommand = z
  .object({
    code: z.string().regex(/^[0-9]{8}$/, 'must be the 8 digits of the code'),
  })
  .strict()
  .meta({ id: 'PortalCodeCommand' });
export type PortalCodeCommand = z.infer<typeof portalCodeCommand>;

/** A file the person may download. */
export const portalArtifact = artifactRecord.pick({ artifactId: true, filename: true, title: true, contentType: true, size: true, sha256: true });
export type PortalArtifact = z.infer<typeof portalArtifact>;

/** The completed link: the session that opens the downloads, and what there is to download. */
export const portalSession = z
  .object({
    linkId: z.uuid(),
    session: secret.describe(`Sent as ${PORTAL_SESSION_HEADER} with each download; shown only in this answer`),
    sessionExpiresAt: timestamp,
    artifacts: z.array(portalArtifact).min(1),
  })
  .meta({ id: 'PortalSession' });
export type PortalSession = z.infer<typeof portalSession>;
