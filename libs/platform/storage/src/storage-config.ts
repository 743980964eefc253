import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { booleanFromEnv, dataDirSecret, IN_MEMORY_DATA_DIR_PREFIX, secretFileField } from '@dsar/platform/config';
import { s3KeyPrefix } from './blob-key';
import type { BlobStore } from './blob-store';
import { EncryptedStorage, type EncryptedStorageOptions } from './encrypted-storage';
import { MASTER_KEY_LENGTH } from './envelope-format';
import { type FileStorage, UnavailableStorage } from './file-storage';
import { FilesystemBlobStore } from './filesystem-blob-store';
import { MemoryBlobStore } from './memory-blob-store';

/**
 * Storage settings (docs/storage.md#configuration), to spread into a
 * service's config schema next to `databaseFields` (whose DATA_DIR gives the
 * default directory):
 *
 * - STORAGE_DRIVER: `filesystem` (the default) or `s3` (AWS S3 or an
 *   S3-compatible server).
 * - STORAGE_DIR: where the filesystem driver keeps its files. Unset, it is
 *   `<DATA_DIR>/storage`, resolved when storage is opened rather than as a
 *   schema default, because a field's default cannot read another field and
 *   the fragment must fit any schema; with a `memory://` DATA_DIR the files
 *   stay in memory like the database.
 * - STORAGE_MASTER_KEY, or STORAGE_MASTER_KEY_FILE (a mounted secret): the
 *   base64 of exactly 32 random bytes, wrapping every tenant's data key.
 *   Without one, storage is unavailable (calls answer 503) unless the runner
 *   asks for a development key kept in DATA_DIR.
 * - STORAGE_PREVIOUS_MASTER_KEYS (comma-separated), or
 *   STORAGE_PREVIOUS_MASTER_KEYS_FILE (one a line): earlier master keys,
 *   during a rotation (docs/storage.md#master-key-rotation); they unwrap the
 *   tenant keys they wrapped, which are then rewrapped under the master key.
 * - S3_BUCKET (required with `s3`, see `requireStorageSettings`), S3_REGION
 *   (default `us-east-1`), S3_ENDPOINT (an S3-compatible server's URL),
 *   S3_FORCE_PATH_STYLE (default false; most S3-compatible servers need true)
 *   and S3_PREFIX (a folder of the bucket for the store). No secret of its
 *   own: the credentials come from the AWS SDK's default chain
 *   (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, web identity, profile,
 *   instance or task role).
 */
const HOW_TO = 'make one with: openssl rand -base64 32';
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The master key's bytes from its base64 text (standard or URL-safe, padding optional); undefined when it is not exactly 32 bytes. */
export function parseStorageMasterKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!BASE64.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  // Node's decoder skips what it cannot read: the length of the unpadded text proves nothing was skipped.
  return bytes.length === MASTER_KEY_LENGTH && trimmed.replace(/=+$/, '').length === 43 ? bytes : undefined;
}

function masterKeyProblem(text: string): string | undefined {
  return parseStorageMasterKey(text) ? undefined : `must be the base64 of exactly ${MASTER_KEY_LENGTH} bytes; ${HOW_TO}`;
}

/** The keys of a list of previous master keys: separated by commas or line breaks, blank entries skipped. */
function previousKeyTexts(text: string): string[] {
  return text
    .split(/[,\r\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The previous master keys' bytes from their list (see previousKeyTexts); undefined when it is empty or any entry is no master key. */
export function parsePreviousMasterKeys(text: string): Buffer[] | undefined {
  const keys = previousKeyTexts(text).map(parseStorageMasterKey);
  return keys.length > 0 && keys.every((key) => key !== undefined) ? (keys as Buffer[]) : undefined;
}

/** What is wrong with a list of previous master keys, naming entries by position (never by value). */
function previousKeysProblem(text: string): string | undefined {
  const entries = previousKeyTexts(text);
  if (entries.length === 0) return `must list at least one key (the base64 of ${MASTER_KEY_LENGTH} bytes), separated by commas or line breaks`;
  const bad = entries.flatMap((entry, i) => (parseStorageMasterKey(entry) ? [] : [i + 1]));
  if (bad.length === 0) return undefined;
  const which = bad.length === 1 ? `entry ${bad[0]} of ${entries.length} is` : `entries ${bad.join(', ')} of ${entries.length} are`;
  return `${which} not the base64 of exactly ${MASTER_KEY_LENGTH} bytes (a storage master key)`;
}

const refined = (problemOf: (text: string) => string | undefined) =>
  z.string().superRefine((text, ctx) => {
    const problem = problemOf(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const STORAGE_DRIVERS = ['filesystem', 's3'] as const;

/** AWS's rule for bucket names (S3-compatible servers accept these too): 3 to 63 of a-z, 0-9, `.` and `-`, starting and ending with a letter or digit. */
const S3_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function s3PrefixProblem(prefix: string): string | undefined {
  try {
    s3KeyPrefix(prefix);
    return undefined;
  } catch {
    return 'must be a folder name of /-separated parts of a-z, 0-9, ".", "_", "-" (such as dsar/prod)';
  }
}

/** Environment fields of storage, to spread into a config schema. */
export const storageFields = {
  STORAGE_DRIVER: z.enum(STORAGE_DRIVERS).default('filesystem'),
  STORAGE_DIR: z.string().min(1).optional(),
  STORAGE_MASTER_KEY: refined(masterKeyProblem).optional(),
  STORAGE_MASTER_KEY_FILE: secretFileField(masterKeyProblem),
  STORAGE_PREVIOUS_MASTER_KEYS: refined(previousKeysProblem).optional(),
  STORAGE_PREVIOUS_MASTER_KEYS_FILE: secretFileField(previousKeysProblem),
  S3_BUCKET: z.string().regex(S3_BUCKET_NAME, 'an S3 bucket name: 3 to 63 of a-z, 0-9, "." and "-"').optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'an AWS region such as eu-central-1')
    .default('us-east-1'),
  /** An S3-compatible server (MinIO, Ceph, ...); unset for AWS S3. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
  S3_PREFIX: refined(s3PrefixProblem).optional(),
};

/**
 * Cross-field rule of storage, for the superRefine of a schema that spreads
 * `storageFields` (with `everyProblem`): the s3 driver needs its bucket.
 */
export function requireStorageSettings(cfg: Pick<StorageConfig, 'STORAGE_DRIVER' | 'S3_BUCKET'>, ctx: z.RefinementCtx): void {
  if (cfg.STORAGE_DRIVER === 's3' && !cfg.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'required when STORAGE_DRIVER=s3' });
  }
}

export interface StorageConfig {
  STORAGE_DRIVER?: (typeof STORAGE_DRIVERS)[number];
  STORAGE_DIR?: string;
  STORAGE_MASTER_KEY?: string;
  STORAGE_MASTER_KEY_FILE?: string;
  STORAGE_PREVIOUS_MASTER_KEYS?: string;
  STORAGE_PREVIOUS_MASTER_KEYS_FILE?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE?: boolean;
  S3_PREFIX?: string;
  /** The service's data directory: the default parent of STORAGE_DIR, and home of the development master key. */
  DATA_DIR: string;
}

/**
 * A secret setting's value, parsed: the variable's, else its file's (`<NAME>_FILE`); undefined when neither is set.
 * Throws, naming the variable or file and never the value, when `parse` refuses it.
 */
function secretSetting<T>(
  variable: string,
  value: string | undefined,
  file: string | undefined,
  parse: (text: string) => T | undefined,
  problemOf: (text: string) => string | undefined,
): T | undefined {
  const [name, text] = value ? [variable, value] : file ? [file, readFileSync(file, 'utf8')] : [undefined, undefined];
  if (text === undefined) return undefined;
  const parsed = parse(text);
  if (parsed === undefined) throw new Error(`${name} ${problemOf(text)}`);
  return parsed;
}

/** The configured master key (the variable before its file); undefined when neither is set. Throws on an unusable key. */
export function storageMasterKeyFrom(config: Pick<StorageConfig, 'STORAGE_MASTER_KEY' | 'STORAGE_MASTER_KEY_FILE'>): Buffer | undefined {
  return secretSetting('STORAGE_MASTER_KEY', config.STORAGE_MASTER_KEY, config.STORAGE_MASTER_KEY_FILE, parseStorageMasterKey, masterKeyProblem);
}

/** The configured previous master keys (the variable before its file); none when neither is set. Throws on an unusable one. */
export function storagePreviousMasterKeysFrom(config: Pick<StorageConfig, 'STORAGE_PREVIOUS_MASTER_KEYS' | 'STORAGE_PREVIOUS_MASTER_KEYS_FILE'>): Buffer[] {
  return secretSetting('STORAGE_PREVIOUS_MASTER_KEYS', config.STORAGE_PREVIOUS_MASTER_KEYS, config.STORAGE_PREVIOUS_MASTER_KEYS_FILE, parsePreviousMasterKeys, previousKeysProblem) ?? [];
}

/** Where the filesystem driver keeps its files: STORAGE_DIR, else `<DATA_DIR>/storage`; undefined for a `memory://` DATA_DIR. */
export function storageDirFrom(config: Pick<StorageConfig, 'STORAGE_DIR' | 'DATA_DIR'>): string | undefined {
  if (config.STORAGE_DIR) return resolve(config.STORAGE_DIR);
  if (config.DATA_DIR.startsWith(IN_MEMORY_DATA_DIR_PREFIX)) return undefined;
  return resolve(config.DATA_DIR, 'storage');
}

/** The blob store the configuration names. The s3 driver (the AWS SDK) is loaded only when it is the one named. */
export async function blobStoreFrom(config: StorageConfig): Promise<BlobStore> {
  const driver = config.STORAGE_DRIVER ?? 'filesystem';
  switch (driver) {
    case 'filesystem': {
      const dir = storageDirFrom(config);
      return dir ? new FilesystemBlobStore(dir) : new MemoryBlobStore();
    }
    case 's3': {
      // A schema without requireStorageSettings lets a missing bucket through: refuse it here rather than at the first upload.
      if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
      const { S3BlobStore } = await import('./s3-blob-store');
      return new S3BlobStore({
        bucket: config.S3_BUCKET,
        region: config.S3_REGION ?? 'us-east-1',
        endpoint: config.S3_ENDPOINT,
        forcePathStyle: config.S3_FORCE_PATH_STYLE ?? false,
        prefix: config.S3_PREFIX,
      });
    }
    default:
      throw new Error(`Unknown STORAGE_DRIVER ${JSON.stringify(driver satisfies never)}`);
  }
}

export const DEV_STORAGE_MASTER_KEY_FILE = 'storage-master-key';

/** A new master key: 32 random bytes, base64. */
export function newStorageMasterKey(): string {
  return randomBytes(MASTER_KEY_LENGTH).toString('base64');
}

/**
 * The embedded runner's master key when none is configured, kept in
 * DATA_DIR/storage-master-key (mode 0600) next to the files it protects, like
 * the other development secrets; a fresh one each time with in-memory data.
 * Deleting the file makes every stored file unreadable.
 */
export async function ensureDevStorageMasterKey(dataDir: string): Promise<{ key: Buffer; path?: string }> {
  const { value, path } = await dataDirSecret(dataDir, DEV_STORAGE_MASTER_KEY_FILE, newStorageMasterKey, (text, file) => {
    if (!parseStorageMasterKey(text)) throw new Error(`${file} ${masterKeyProblem(text)}, or delete it (with the stored files it protects) to get a new one`);
    return text.trim();
  });
  const key = parseStorageMasterKey(value);
  if (!key) throw new Error(`The development storage master key ${path ?? ''} is unusable`); // unreachable: checked above
  return { key, path };
}

export interface StorageFromConfigOptions extends Omit<EncryptedStorageOptions, 'previousMasterKeys'> {
  /** Embedded and development runs: without a configured master key, use (or make) the development one in DATA_DIR. */
  devMasterKey?: boolean;
}

/** Unavailability reason when no master key is configured. */
export const NO_MASTER_KEY = `no master key is configured (set STORAGE_MASTER_KEY or STORAGE_MASTER_KEY_FILE; ${HOW_TO})`;

/**
 * The service's storage from its settings: an EncryptedStorage, or an
 * UnavailableStorage (every call rejects with StorageUnavailableError, the
 * service answers 503 there) when no master key is configured and no
 * development key was asked for. A key that is configured but unusable throws:
 * that is a broken configuration, not an absent one.
 */
export async function storageFromConfig(config: StorageConfig, options: StorageFromConfigOptions = {}): Promise<FileStorage> {
  const { devMasterKey, ...storageOptions } = options;
  const masterKey = storageMasterKeyFrom(config) ?? (devMasterKey ? (await ensureDevStorageMasterKey(config.DATA_DIR)).key : undefined);
  if (!masterKey) return new UnavailableStorage(NO_MASTER_KEY);
  return new EncryptedStorage(await blobStoreFrom(config), masterKey, { ...storageOptions, previousMasterKeys: storagePreviousMasterKeysFrom(config) });
}
