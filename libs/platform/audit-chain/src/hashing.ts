import { createHash, hash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** Every hash the ledger shows or links is written `sha256:<64 lowercase hex digits>`. */
export const HASH_PREFIX = 'sha256:';

/** RFC 8785 (JCS) JSON: sorted keys, no whitespace, ECMAScript number form. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** `sha256:<hex>` of the parts one after the other (text as UTF-8, no separator). */
export function sha256Of(...parts: (string | Buffer)[]): string {
  // One-shot hashing of text is several times cheaper per call than a Hash object, which verifying long chains feels.
  if (parts.every((p) => typeof p === 'string')) return HASH_PREFIX + hash('sha256', parts.join(''), 'hex');
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return HASH_PREFIX + h.digest('hex');
}
