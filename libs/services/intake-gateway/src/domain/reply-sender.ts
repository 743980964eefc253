import type { RequestDetail } from '@dsar/contracts';
import { addressOf } from './mail-text';

/**
 * Whether a reply comes from the requester as the request knows them (docs/webhooks.md#replies). The request knows
 * the requestor's email and the intake contact when that is an email address (where the notifier writes to) or a
 * Slack user (`slack://user?team=…&id=…`, who posted the request). Addresses are compared trimmed, without a display
 * name or `mailto:`, in Unicode NFC and in lower case, the local part included: RFC 5321 lets a server treat the local
 * part's case as significant, but no mailbox provider in use does, and the requester typing `Jana@` is no stranger.
 * Sub-addresses (`jana+dsar@`) and dots are not folded: that is one provider's rule, and folding it elsewhere would
 * take someone else's mailbox for the requester's.
 */

/** A bare email address, as the notifier accepts an intake contact for its emails. */
const BARE_EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;
const SLACK_USER = /^slack:\/\/user\?team=[A-Z0-9]{1,64}&id=[A-Z0-9]{1,64}$/i;

/** A contact as compared: an email address without its display name, or a Slack user link; undefined for anything else. */
export function comparableContact(contact: string): string | undefined {
  const trimmed = contact.trim().normalize('NFC');
  if (SLACK_USER.test(trimmed)) return trimmed.toLowerCase();
  return addressOf(trimmed)?.normalize('NFC');
}

/** The contacts the request knows its requester by, comparable. */
export function knownContactsOf(detail: Pick<RequestDetail, 'requestor' | 'intakeSource'>): Set<string> {
  const known = new Set<string>();
  const email = detail.requestor?.email && comparableContact(detail.requestor.email);
  if (email) known.add(email);
  const contact = detail.intakeSource.contact?.trim();
  if (contact && (BARE_EMAIL.test(contact) || SLACK_USER.test(contact))) {
    const comparable = comparableContact(contact);
    if (comparable) known.add(comparable);
  }
  return known;
}

/** Whether the sender of a message (its address, or its Slack user link) is one the request knows. */
export function isKnownSender(detail: Pick<RequestDetail, 'requestor' | 'intakeSource'>, sender: string | undefined): boolean {
  const comparable = sender === undefined ? undefined : comparableContact(sender);
  return comparable !== undefined && knownContactsOf(detail).has(comparable);
}
