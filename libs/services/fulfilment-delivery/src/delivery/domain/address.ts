import { createHash, timingSafeEqual } from 'node:crypto';
import { type RequestDetail, requestor } from '@dsar/contracts';

/**
 * The form addresses are compared in: surrounding white space trimmed,
 * Unicode NFC, lower case (the whole address: RFC 5321 lets the local part be
 * case-sensitive, but no mailbox provider in use treats it so, and a person
 * who types `Jane@` for `jane@` is the same person). Nothing provider-specific
 * is folded: `jane+dsar@` and `j.ane@` are other addresses than `jane@`, as
 * they are for most providers (only some, Gmail among them, ignore dots and
 * `+tags`); folding them would accept addresses the person may not control.
 */
export function normalizeAddress(address: string): string {
  return address.trim().normalize('NFC').toLowerCase();
}

/** Whether two addresses are the same after normalizing, in constant time (their SHA-256 digests are compared). */
export function addressesMatch(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(normalizeAddress(s), 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The API's own rule for an email address (the requestor's `email`). */
const isEmail = (value: string): boolean => requestor.shape.email.unwrap().safeParse(value.trim()).success;

/**
 * The address the controller knows for the requestor: `requestor.email`, else
 * `intakeSource.contact` when that is an email address (a chat handle or a
 * phone number is not). Null when there is none.
 */
export function knownAddressOf(detail: Pick<RequestDetail, 'requestor' | 'intakeSource'>): string | null {
  const email = detail.requestor?.email;
  if (email && isEmail(email)) return email.trim();
  const contact = detail.intakeSource?.contact;
  if (contact && isEmail(contact)) return contact.trim();
  return null;
}

/**
 * An address as shown when the caller did not name one: the first character
 * of the local part, `***`, and the domain (`jane.doe@example.org` →
 * `j***@example.org`), normalized. Enough to tell the person which address
 * delivery will use, not enough to learn it.
 */
export function maskAddress(address: string): string {
  const normalized = normalizeAddress(address);
  const at = normalized.lastIndexOf('@');
  const first = Array.from(normalized.slice(0, at))[0] ?? '';
  return `${first}***${normalized.slice(at)}`;
}
