import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ROLES, type Principal, type Role } from '@dsar/contracts';
import { isUsableId, USABLE_ID_RULE } from './identifier';
import { looksLikeJwt } from './jwt';

export interface ApiKeyEntry {
  token: string;
  tenantId: string;
  workspaceId?: string;
  roles: Role[];
}

export const MIN_API_KEY_LENGTH = 24;

const usableId = z.string().refine(isUsableId, `must be ${USABLE_ID_RULE}`);

/** One entry of DSAR_API_KEYS. Strict, so a misspelt field (tenant_id) is reported rather than dropped. */
export const apiKeyEntrySchema = z.strictObject({
  token: z
    .string()
    .min(MIN_API_KEY_LENGTH, `must be at least ${MIN_API_KEY_LENGTH} characters`)
    // A key shaped like a JWT would be sent to JWT verification and never match.
    .refine((token) => !looksLikeJwt(token), 'must not look like a JWT (three dot-separated segments)'),
  tenantId: z.string().min(1, 'must not be empty').pipe(usableId),
  workspaceId: z.string().min(1, 'must not be empty').pipe(usableId).optional(),
  roles: z.array(z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` })).min(1, 'must list at least one role'),
});

/**
 * The list of keys; duplicates are named by position, never by token. The
 * check also runs when an entry failed, so every problem shows at once; the
 * entries may then be raw input, hence the defensive reads.
 */
export const apiKeyListSchema = z.array(apiKeyEntrySchema).superRefine(
  (entries: readonly unknown[], ctx) => {
    const firstIndexByToken = new Map<string, number>();
    entries.forEach((entry, index) => {
      const token = (entry as { token?: unknown } | null)?.token;
      if (typeof token !== 'string') return;
      const first = firstIndexByToken.get(token);
      if (first === undefined) firstIndexByToken.set(token, index);
      else ctx.addIssue({ code: 'custom', path: [index, 'token'], message: `duplicates the token of entry ${first}` });
    });
  },
  { when: (payload) => Array.isArray(payload.value) },
);

/**
 * DSAR_API_KEYS as it comes from the environment: a JSON string. JSON.parse's
 * own message quotes the input, which would put a token into the config
 * error, so it is replaced by a fixed one.
 */
export const apiKeysJsonSchema = z
  .string()
  .transform((raw, ctx): unknown => {
    try {
      return JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not valid JSON: expected an array of {token, tenantId, workspaceId?, roles}' });
      return z.NEVER;
    }
  })
  .pipe(apiKeyListSchema);

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The id logs and audit records use for a key: derived from the token, useless for authenticating. */
export function apiKeyId(token: string): string {
  return `key:${sha256(token).toString('hex').slice(0, 16)}`;
}

interface StoredKey {
  readonly digest: Buffer;
  readonly principal: Principal;
}

/** Static API keys, held as sha256 digests so every comparison takes the same time whatever the token. */
export class ApiKeyStore {
  private readonly keys: readonly StoredKey[];

  constructor(entries: readonly ApiKeyEntry[]) {
    this.keys = entries.map((entry) => ({
      digest: sha256(entry.token),
      principal: {
        id: apiKeyId(entry.token),
        tenantId: entry.tenantId,
        ...(entry.workspaceId ? { workspaceId: entry.workspaceId } : {}),
        roles: [...entry.roles],
      },
    }));
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * The principal of the key equal to the token, if any. Every key is compared
   * (no early return) so the time taken does not reveal which key, or whether
   * any, matched.
   */
  find(token: string): Principal | undefined {
    const digest = sha256(token);
    let match: StoredKey | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(digest, key.digest) && match === undefined) match = key;
    }
    return match && { ...match.principal, roles: [...match.principal.roles] };
  }
}
