import { z } from 'zod';
import { ensureDevKeyList, KEY_HOW_TO, KEY_LIST_MIN_LENGTH, keyListFields, keyListFrom } from './key-list';

/**
 * REQUEST_REFERENCE_KEY: the secret the notifier tags the references it prints in subject lines with
 * (`DSAR-1A2B3C4D-7K3QX9M2TR4VB`) and intake-gateway checks the tag of a quoted reference with
 * (docs/webhooks.md#replies). A secret of its own rather than one derived from INTERNAL_AUTH_KEY: references live
 * in mail threads for months, so this key is rotated on its own schedule, with the earlier keys listed after the
 * new one until the threads that quote them have ended. Given as text (one key, or several separated by commas or
 * line breaks, each at least 32 bytes; the first tags new references) or as a file holding it.
 */

/** The shortest key accepted, in bytes (the HMAC-SHA256 output size). */
export const REQUEST_REFERENCE_KEY_MIN_LENGTH = KEY_LIST_MIN_LENGTH;

/** Environment fields of the key, to spread into the config schema of a process that makes or checks references. */
const keyList = keyListFields();
export const requestReferenceKeyFields = {
  REQUEST_REFERENCE_KEY: keyList.text,
  REQUEST_REFERENCE_KEY_FILE: keyList.file,
};

export interface RequestReferenceKeyConfig {
  REQUEST_REFERENCE_KEY?: string;
  REQUEST_REFERENCE_KEY_FILE?: string;
}

/** Cross-field rule of the notifier and intake-gateway processes: one of the two must be set, not both. */
export function requireRequestReferenceKey(value: RequestReferenceKeyConfig, ctx: z.RefinementCtx): void {
  if (value.REQUEST_REFERENCE_KEY && value.REQUEST_REFERENCE_KEY_FILE) {
    ctx.addIssue({ code: 'custom', path: ['REQUEST_REFERENCE_KEY_FILE'], message: 'give REQUEST_REFERENCE_KEY or REQUEST_REFERENCE_KEY_FILE, not both' });
  }
  if (!value.REQUEST_REFERENCE_KEY && !value.REQUEST_REFERENCE_KEY_FILE) {
    ctx.addIssue({
      code: 'custom',
      path: ['REQUEST_REFERENCE_KEY'],
      message: `required (or REQUEST_REFERENCE_KEY_FILE): the key that tags the request references of the emails to data subjects, the same in the notifier and intake-gateway; ${KEY_HOW_TO}`,
    });
  }
}

/** The configured keys, the current one first, from the variable or its file; empty when neither is set. */
export function requestReferenceKeysFrom(config: RequestReferenceKeyConfig): string[] {
  return keyListFrom(config.REQUEST_REFERENCE_KEY, config.REQUEST_REFERENCE_KEY_FILE);
}

export const DEV_REQUEST_REFERENCE_KEY_FILE = 'request-reference-key';

/**
 * The embedded runner's key when none is configured, kept in DATA_DIR/request-reference-key (mode 0600) like the
 * other development secrets, so that references in emails sent before a restart still match their replies.
 */
export function ensureDevRequestReferenceKey(dataDir: string): Promise<{ key: string; path?: string }> {
  return ensureDevKeyList(dataDir, DEV_REQUEST_REFERENCE_KEY_FILE);
}
