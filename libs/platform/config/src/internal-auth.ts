import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { dataDirSecret } from './data-dir-secret';
import { secretFileField, secretTextField } from './secret-file';

/**
 * INTERNAL_AUTH_KEY: the key every process shares to sign and check the
 * caller's identity on internal calls (docs/adr/0020-signed-internal-identity.md).
 * Given as text (at least 32 bytes) or as a file holding it (a mounted secret).
 */
/** The shortest key accepted, in bytes (the HMAC-SHA256 output size). */
export const INTERNAL_AUTH_KEY_MIN_LENGTH = 32;

const HOW_TO = 'make one with: openssl rand -base64 32';

function keyProblem(text: string): string | undefined {
  return Buffer.byteLength(text.trim(), 'utf8') < INTERNAL_AUTH_KEY_MIN_LENGTH ? `must be at least ${INTERNAL_AUTH_KEY_MIN_LENGTH} bytes; ${HOW_TO}` : undefined;
}

/** Environment fields of the key, to spread into a config schema. */
export const internalAuthFields = {
  INTERNAL_AUTH_KEY: secretTextField(keyProblem),
  INTERNAL_AUTH_KEY_FILE: secretFileField(keyProblem),
};

export interface InternalAuthConfig {
  INTERNAL_AUTH_KEY?: string;
  INTERNAL_AUTH_KEY_FILE?: string;
}

/** Cross-field rule of every process of distributed mode: one of the two must be set. */
export function requireInternalAuthKey(value: InternalAuthConfig, ctx: z.RefinementCtx): void {
  if (!value.INTERNAL_AUTH_KEY && !value.INTERNAL_AUTH_KEY_FILE) {
    ctx.addIssue({
      code: 'custom',
      path: ['INTERNAL_AUTH_KEY'],
      message: `required (or INTERNAL_AUTH_KEY_FILE): the key that signs the caller's identity between the services, the same in every process; ${HOW_TO}`,
    });
  }
}

/** The configured key's text (surrounding white space removed), from the variable or its file; undefined when neither is set. */
export function internalAuthKeyFrom(config: InternalAuthConfig): string | undefined {
  const text = config.INTERNAL_AUTH_KEY ?? (config.INTERNAL_AUTH_KEY_FILE ? readFileSync(config.INTERNAL_AUTH_KEY_FILE, 'utf8') : undefined);
  return text?.trim();
}

export const DEV_INTERNAL_AUTH_KEY_FILE = 'internal-auth-key';

/** A new random key: 32 random bytes, base64url. */
export function newInternalAuthKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The embedded runner's key when none is configured, kept in
 * DATA_DIR/internal-auth-key (mode 0600) like the other development secrets;
 * `npm run start:distributed` uses the same file.
 */
export async function ensureDevInternalAuthKey(dataDir: string): Promise<{ key: string; path?: string }> {
  const { value, path } = await dataDirSecret(dataDir, DEV_INTERNAL_AUTH_KEY_FILE, newInternalAuthKey, (text, file) => {
    const problem = keyProblem(text);
    if (problem) throw new Error(`${file} ${problem}, or delete it to get a new one`);
    return text.trim();
  });
  return { key: value, path };
}
