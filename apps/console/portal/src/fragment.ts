/**
 * The link the person received, `…/portal/#<linkId>.<credential>` (libs/contracts/src/http/portal.ts): the link's id,
 * a UUID, and its credential, 32 random bytes in base64url. They travel in the fragment, which the browser never sends
 * to a server; the page sends the credential in a header and drops the fragment from the address.
 */
export interface DeliveryLink {
  linkId: string;
  credential: string;
}

const LINK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CREDENTIAL = /^[A-Za-z0-9_-]{43}$/;

/** True for a link the page may send: an id and a credential of their forms. */
export function isDeliveryLink(link: DeliveryLink): boolean {
  return LINK_ID.test(link.linkId) && CREDENTIAL.test(link.credential);
}

/** The link in `location.hash` (with or without its `#`); undefined when it is not one, whole. */
export function linkFromFragment(hash: string): DeliveryLink | undefined {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const dot = fragment.indexOf('.');
  if (dot < 0) return undefined;
  const link = { linkId: fragment.slice(0, dot).toLowerCase(), credential: fragment.slice(dot + 1) };
  return isDeliveryLink(link) ? link : undefined;
}
