import { z } from 'zod';
import { ensureDevKeyList, KEY_HOW_TO, KEY_LIST_MIN_LENGTH, keyListFields, keyListFrom } from './key-list';

/**
 * IDENTITY_INDEX_KEY: the secret lifecycle-clock derives the digests of its identity index from (docs/identity.md),
 * so that a tenant's requests can be found by a person's email, phone or account id without the index holding them
 * in clear. A secret of its own, given to lifecycle-clock only: not the storage master key, INTERNAL_AUTH_KEY or
 * REQUEST_REFERENCE_KEY, so that whoever holds one of those cannot test guesses against the index. Given as text (one
 * key, or several separated by commas or line breaks, each at least 32 bytes; the first writes new index rows, the
 * others are searched too until `npm run identity:reindex` has rewritten every row under the first) or as a file
 * holding it.
 */

/** The shortest key accepted, in bytes (the HMAC-SHA256 output size). */
export const IDENTITY_INDEX_KEY_MIN_LENGTH = KEY_LIST_MIN_LENGTH;

/** Environment fields of the key, to spread into the config schema of the process that keeps the identity index. */
const keyList = keyListFields();
export const identityIndexKeyFields = {
  IDENTITY_INDEX_KEY: keyList.text,
  IDENTITY_INDEX_KEY_FILE: keyList.file,
};

export interface IdentityIndexKeyConfig {
  IDENTITY_INDEX_KEY?: string;
  IDENTITY_INDEX_KEY_FILE?: string;
}

/** Cross-field rule of the lifecycle-clock process: one of the two must be set, not both. */
export function requireIdentityIndexKey(value: IdentityIndexKeyConfig, ctx: z.RefinementCtx): void {
  if (value.IDENTITY_INDEX_KEY && value.IDENTITY_INDEX_KEY_FILE) {
    ctx.addIssue({ code: 'custom', path: ['IDENTITY_INDEX_KEY_FILE'], message: 'give IDENTITY_INDEX_KEY or IDENTITY_INDEX_KEY_FILE, not both' });
  }
  if (!value.IDENTITY_INDEX_KEY && !value.IDENTITY_INDEX_KEY_FILE) {
    ctx.addIssue({
      code: 'custom',
      path: ['IDENTITY_INDEX_KEY'],
      message: `required (or IDENTITY_INDEX_KEY_FILE): the key of the index that finds a tenant's requests by a person's email, phone or account id; ${KEY_HOW_TO}`,
    });
  }
}

/** The configured keys, the current one first, from the variable or its file; empty when neither is set. */
export function identityIndexKeysFrom(config: IdentityIndexKeyConfig): string[] {
  return keyListFrom(config.IDENTITY_INDEX_KEY, config.IDENTITY_INDEX_KEY_FILE);
}

export const DEV_IDENTITY_INDEX_KEY_FILE = 'identity-index-key';

/**
 * The embedded runner's key when none is configured, kept in DATA_DIR/identity-index-key (mode 0600) like the other
 * development secrets, so that the index rows written before a restart still match a search after it.
 */
export function ensureDevIdentityIndexKey(dataDir: string): Promise<{ key: string; path?: string }> {
  return ensureDevKeyList(dataDir, DEV_IDENTITY_INDEX_KEY_FILE);
}
