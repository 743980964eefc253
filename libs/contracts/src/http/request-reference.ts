import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A request's reference, in two forms (docs/webhooks.md#replies):
 *
 * - the **short** reference, `DSAR-` and the first eight hex digits of the id in capitals (`DSAR-1A2B3C4D`). Operator
 *   messages show it and lifecycle-clock finds a request by it. It names a request but proves nothing: anyone can
 *   guess one or read it off a forwarded subject line, so intake never takes a reply as the person's on its word.
 * - the **tagged** reference, the short one, a dash and a tag of 13 characters (`DSAR-1A2B3C4D-7K3QX9M2TR4VB`): 65 bits
 *   of an HMAC-SHA256 of the id under the deployment's REQUEST_REFERENCE_KEY, in Crockford's base32 (digits and capitals
 *   without I, L, O and U, so that it reads out on the phone). The notifier puts it in the subject of every email to
 *   the data subject; only someone who saw such an email can quote it.
 *
 * Both are read in any case; in a tag, I and L count as 1 and O as 0, as Crockford's alphabet prescribes.
 */

/** The short reference: `DSAR-` and the id's first eight letters and digits, in capitals. */
export function requestReference(requestId: string): string {
  return `DSAR-${requestId
    .replace(/[^0-9a-zA-Z]/g, '')
    .slice(0, 8)
    .toUpperCase()}`;
}

/** Characters of a tag: 13 of Crockford's base32 carry 65 bits. */
export const REFERENCE_TAG_LENGTH = 13;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** What the tag's HMAC covers before the id: a key used for anything else never yields a valid tag. */
const TAG_CONTEXT = 'dsar-request-reference-v1\0';

/** The tag of a request id under one key. */
function tagOf(requestId: string, key: string | Buffer): string {
  const digest = createHmac('sha256', key).update(`${TAG_CONTEXT}${requestId.toLowerCase()}`, 'utf8').digest();
  // The first 65 bits of the digest, five at a time.
  let bits = BigInt(`0x${digest.subarray(0, 9).toString('hex')}`) >> 7n;
  let tag = '';
  for (let i = 0; i < REFERENCE_TAG_LENGTH; i++) {
    tag = CROCKFORD[Number(bits & 31n)] + tag;
    bits >>= 5n;
  }
  return tag;
}

/**
 * The tagged reference of a request (`DSAR-1A2B3C4D-7K3QX9M2TR4VB`) under the reference key: what the data subject
 * is shown and quotes back. The one way it is made; `referenceTagMatches` checks one.
 */
export function taggedRequestReference(requestId: string, key: string | Buffer): string {
  return `${requestReference(requestId)}-${tagOf(requestId, key)}`;
}

/** A reference as a text quotes it: the id prefix (eight lower-case hex digits) and, for a tagged one, its tag (capitals, aliases resolved). */
export interface QuotedReference {
  idPrefix: string;
  tag?: string;
}

/**
 * A reference inside a text (a subject, a chat message), standing as a word of its own, in any case: the short form,
 * or the tagged one. A dash and anything else after the eight digits is neither (a tag of the wrong length does not
 * fall back to the short form). Every quantifier is bounded and the lookarounds have a fixed length: linear time.
 */
const REFERENCE_IN_TEXT = /(?<![\p{L}\p{N}])DSAR-([0-9A-F]{8})(?:-([0-9A-Z]{13}))?(?![\p{L}\p{N}]|-[\p{L}\p{N}])/giu;

/** The most references read from one text: each costs intake a look-up. */
export const MAX_QUOTED_REFERENCES = 5;

/** A tag as typed by a person, in the alphabet's spelling: capitals, I and L as 1, O as 0. */
function normalTag(tag: string): string {
  return tag.toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0');
}

/**
 * The references a text quotes, in the order they stand, each once, at most `MAX_QUOTED_REFERENCES`:
 * `Re: Your request DSAR-1A2B3C4D-7K3QX9M2TR4VB` gives `[{idPrefix: '1a2b3c4d', tag: '7K3QX9M2TR4VB'}]`.
 */
export function quotedReferences(text: string): QuotedReference[] {
  const found = new Map<string, QuotedReference>();
  for (const m of text.matchAll(REFERENCE_IN_TEXT)) {
    const quoted: QuotedReference = { idPrefix: m[1].toLowerCase(), ...(m[2] ? { tag: normalTag(m[2]) } : {}) };
    found.set(`${quoted.idPrefix}-${quoted.tag ?? ''}`, quoted);
    if (found.size === MAX_QUOTED_REFERENCES) break;
  }
  return [...found.values()];
}

/**
 * Whether a quoted reference is the tagged reference of the request under any of the keys (the first makes new
 * references; the others are earlier ones, during a rotation). A reference without a tag, or for another id, never
 * is. Tags are compared in constant time.
 */
export function referenceTagMatches(quoted: QuotedReference, requestId: string, keys: readonly (string | Buffer)[]): boolean {
  if (quoted.tag === undefined || quoted.tag.length !== REFERENCE_TAG_LENGTH) return false;
  if (requestReference(requestId) !== `DSAR-${quoted.idPrefix.toUpperCase()}`) return false;
  const given = Buffer.from(quoted.tag, 'utf8');
  let matches = false;
  for (const key of keys) {
    if (timingSafeEqual(Buffer.from(tagOf(requestId, key), 'utf8'), given)) matches = true;
  }
  return matches;
}

/** The text with every reference in it replaced by a space: a quoted reference is the service's word, not the author's. */
export function withoutRequestReferences(text: string): string {
  return text.replace(REFERENCE_IN_TEXT, ' ');
}

/**
 * A whole value that is a short reference, in any case (`DSAR-1A2B3C4D`, `dsar-1a2b3c4d`): what the API takes in
 * place of a request id and as the queue's `reference` filter, and publishes as the pattern. No repetition, linear.
 */
export const SHORT_REFERENCE_PATTERN = /^[Dd][Ss][Aa][Rr]-[0-9A-Fa-f]{8}$/;

/** The id prefix a short reference names (`DSAR-1A2B3C4D` → `1a2b3c4d`, any case), or undefined when it is not one. */
export function idPrefixOfReference(reference: string): string | undefined {
  const m = /^DSAR-([0-9A-F]{8})$/i.exec(reference.trim());
  return m ? m[1].toLowerCase() : undefined;
}

/** The first and the last request id a short reference can name (`DSAR-1A2B3C4D`): the range of ids that start with its eight hex digits. */
export function idRangeOfReference(reference: string): { from: string; to: string } | undefined {
  const prefix = idPrefixOfReference(reference);
  return prefix ? { from: `${prefix}-0000-0000-0000-000000000000`, to: `${prefix}-ffff-ffff-ffff-ffffffffffff` } : undefined;
}
