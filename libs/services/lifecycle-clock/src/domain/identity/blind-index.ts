import { createHmac, hkdfSync } from 'node:crypto';
import { IDENTITY_KINDS, type IdentityKind } from '@dsar/contracts';

/**
 * The digests of lifecycle-clock's identity index (docs/identity.md): a keyed hash of a normalised identity, so that
 * a request can be found by the person's email, phone or account id while the index holds none of them in clear, and
 * whoever reads the index without the key (IDENTITY_INDEX_KEY) can test no guess against it.
 *
 * - Each kind has a key of its own, derived from the configured key with HKDF-SHA256 (the kind as its info): the same
 *   text as an email and as an account id gives unrelated digests.
 * - The digest is HMAC-SHA256 under the kind's key of the tenant id, a NUL and the normalised value: the same person
 *   in two tenants has unrelated digests, so nothing in the index links tenants.
 * - Each key has an id, stored on every row it wrote: the first 12 characters of the base64url HMAC-SHA256 of a fixed
 *   text under the key. Stable for a key, it tells nothing of the key. While a rotation runs, the new key writes the
 *   rows and a search looks for the digests under every configured key.
 */

const KIND_KEY_SALT = 'dsar identity index';
const KEY_ID_TEXT = 'dsar identity index key id';
const KEY_ID_LENGTH = 12;
/** Bytes of a kind's key and of a digest (SHA-256's output). */
const DIGEST_BYTES = 32;

interface IndexKey {
  readonly id: string;
  readonly kindKeys: Readonly<Record<IdentityKind, Buffer>>;
}

/** A digest of an identity under one of the configured keys. */
export interface KeyedDigest {
  keyId: string;
  digest: Buffer;
}

export class IdentityBlindIndex {
  /** The id of the key new index rows are written under (the first configured). */
  readonly currentKeyId: string;
  /** The ids of every configured key, the current one first. */
  readonly keyIds: readonly string[];
  readonly #keys: readonly IndexKey[];

  /** `keyTexts`: the configured keys (identityIndexKeysFrom), the current one first; a key listed twice counts once. */
  constructor(keyTexts: readonly string[]) {
    if (keyTexts.length === 0) throw new Error('the identity index needs a key: set IDENTITY_INDEX_KEY or IDENTITY_INDEX_KEY_FILE');
    const keys = new Map<string, IndexKey>();
    for (const text of keyTexts) {
      const id = keyIdOf(text);
      if (!keys.has(id)) keys.set(id, { id, kindKeys: kindKeysOf(text) });
    }
    this.#keys = [...keys.values()];
    this.keyIds = this.#keys.map((key) => key.id);
    this.currentKeyId = this.keyIds[0];
  }

  /** The digest of a normalised identity of the tenant under the current key: what a new index row holds. */
  digest(tenantId: string, kind: IdentityKind, normalised: string): Buffer {
    return digestUnder(this.#keys[0], tenantId, kind, normalised);
  }

  /** The digests of a normalised identity of the tenant under every configured key, the current one first: what a search looks for. */
  digestsUnderEveryKey(tenantId: string, kind: IdentityKind, normalised: string): KeyedDigest[] {
    return this.#keys.map((key) => ({ keyId: key.id, digest: digestUnder(key, tenantId, kind, normalised) }));
  }
}

function kindKeysOf(keyText: string): Record<IdentityKind, Buffer> {
  return Object.fromEntries(IDENTITY_KINDS.map((kind) => [kind, Buffer.from(hkdfSync('sha256', keyText, KIND_KEY_SALT, kind, DIGEST_BYTES))])) as Record<IdentityKind, Buffer>;
}

function keyIdOf(keyText: string): string {
  return createHmac('sha256', keyText).update(KEY_ID_TEXT, 'utf8').digest('base64url').slice(0, KEY_ID_LENGTH);
}

function digestUnder(key: IndexKey, tenantId: string, kind: IdentityKind, normalised: string): Buffer {
  return createHmac('sha256', key.kindKeys[kind]).update(`${tenantId}\u0000${normalised}`, 'utf8').digest();
}
