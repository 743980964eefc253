import { domainToASCII } from 'node:url';
import { IDENTITY_VALUE_MAX_LENGTH, type IdentityKind } from '@dsar/contracts';
// The minimal metadata (the package's default, named here so the choice is visible): it holds each country's
// calling code, national prefixes and possible lengths, which is all that parsing, `isPossible()` and the E.164
// form need. The larger `max` metadata adds the patterns of valid digits and of number types; the index keeps
// possible numbers and uses no types, so it would change nothing here. The package's version is pinned: a newer
// metadata could read a number differently, which is a change of the rules (IDENTITY_RULES_VERSION).
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * How the identity index of lifecycle-clock turns an email address, a phone number or an account id into the one
 * form its digest is taken of (docs/identity.md): two spellings of the same identity give the same form, and
 * different identities never do. Every function answers null for a text that is not an identity of its kind (not
 * indexed; a search for it is refused). Texts longer than IDENTITY_VALUE_MAX_LENGTH are refused before any other
 * work, so every step runs on a bounded input.
 */

/**
 * The version of these rules, stored on every index row: a change of the rules bumps it, and `npm run
 * identity:reindex` rewrites the rows of the earlier version.
 */
export const IDENTITY_RULES_VERSION = 1;

const WHITE_SPACE = /\s/u;

/**
 * An email address: trimmed, Unicode NFKC, lower-cased as a whole, the domain in ASCII (IDNA: `bücher.example` is
 * `xn--bcher-kva.example`). Exactly one `@`, a non-empty local part, a domain of two or more non-empty labels, no
 * white space. The local part is kept as written apart from case: no dots removed and no `+tag` dropped, as mail
 * providers differ on both and merging them would join different people.
 */
export function normaliseEmail(text: string): string | null {
  if (text.length > IDENTITY_VALUE_MAX_LENGTH) return null;
  const address = text.trim().normalize('NFKC').toLowerCase();
  if (WHITE_SPACE.test(address)) return null;
  const at = address.indexOf('@');
  if (at <= 0 || at !== address.lastIndexOf('@')) return null;
  const domain = domainToASCII(address.slice(at + 1));
  const labels = domain.split('.');
  if (labels.length < 2 || labels.some((label) => label === '')) return null;
  return `${address.slice(0, at)}@${domain}`;
}

/**
 * A phone number in E.164 (`+4930123456`): a number written in international form (`+49 30 123456`), or in the
 * national form of the jurisdiction's country (`030 123456` in `DE`, or a `DE-…` subdivision), that has a possible
 * length for its country. A jurisdiction that is not a country (`EU`) gives no country, so only international
 * forms are read. The whole text must be the number: one inside other words is not taken.
 */
export function normalisePhone(text: string, jurisdiction?: string): string | null {
  if (text.length > IDENTITY_VALUE_MAX_LENGTH) return null;
  const defaultCountry = countryOf(jurisdiction);
  const phone = parsePhoneNumberFromString(text.trim(), { defaultCountry, extract: false });
  return phone?.isPossible() ? phone.number : null;
}

/** The country of a jurisdiction code (`US-CA` is `US`), when the phone metadata knows it as one. */
function countryOf(jurisdiction: string | undefined) {
  if (jurisdiction === undefined) return undefined;
  const country = jurisdiction.trim().split('-', 1)[0].toUpperCase();
  return isSupportedCountry(country) ? country : undefined;
}

/**
 * An account id, as given apart from surrounding white space: case and every character kept (ids of the host
 * systems are compared exactly), 1 to IDENTITY_VALUE_MAX_LENGTH characters.
 */
export function normaliseAccount(text: string): string | null {
  if (text.length > IDENTITY_VALUE_MAX_LENGTH) return null;
  const account = text.trim();
  return account === '' ? null : account;
}

/** The indexed form of an identity of the kind, or null when the text is not one; `jurisdiction` reads national phone numbers. */
export function normaliseIdentity(kind: IdentityKind, text: string, jurisdiction?: string): string | null {
  switch (kind) {
    case 'email':
      return normaliseEmail(text);
    case 'phone':
      return normalisePhone(text, jurisdiction);
    case 'account':
      return normaliseAccount(text);
  }
}
