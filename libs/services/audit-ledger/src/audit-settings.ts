import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { dataDirSecret, secretFileField } from '@dsar/platform/config';
import type { CheckpointSettings } from './application/checkpoint-publisher';
import { type RetentionConfig, retentionFields } from '@dsar/platform/retention';

/** The key PEM as configuration carries it: an environment variable may hold `\n` for the line breaks. */
function pemText(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

/** Why a PEM is not an Ed25519 private key, or undefined when it is one. */
function signingKeyProblem(pem: string): string | undefined {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ed25519' ? undefined : `is a ${key.asymmetricKeyType} key; it must be Ed25519`;
  } catch {
    return 'is not a PEM private key';
  }
}

const HOW_TO = 'make one with: openssl genpkey -algorithm ed25519';

/** audit-ledger's own settings (README configuration table), shared by its app and the embedded runner. */
export const auditFields = {
  /** The retention sweep of `audit_event` (docs/retention.md). */
  ...retentionFields,
  /** How often signed checkpoints are made, in milliseconds; 0 turns them off. */
  AUDIT_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
  /** The Ed25519 private key that signs checkpoints, PEM (PKCS#8). */
  AUDIT_SIGNING_KEY: z
    .string()
    .transform(pemText)
    .superRefine((pem, ctx) => {
      const problem = signingKeyProblem(pem);
      if (problem) ctx.addIssue({ code: 'custom', message: `AUDIT_SIGNING_KEY ${problem}; ${HOW_TO}` });
    })
    .optional(),
  /** A file holding that key (a mounted secret); used when AUDIT_SIGNING_KEY is not set. */
  AUDIT_SIGNING_KEY_FILE: secretFileField((pem) => {
    const problem = signingKeyProblem(pem);
    return problem && `${problem}; ${HOW_TO}`;
  }),
};

export interface AuditConfig extends RetentionConfig {
  AUDIT_CHECKPOINT_INTERVAL_MS: number;
  AUDIT_SIGNING_KEY?: string;
  AUDIT_SIGNING_KEY_FILE?: string;
}

/**
 * Chain heads per signed checkpoint (docs/audit.md#checkpoints): a checkpoint is one transaction, kept short enough
 * that the requests around it wait little for it in embedded mode (ADR 0043).
 */
export const CHECKPOINT_MAX_LEAVES = 250;

/** Checkpoint settings from configuration; absent values leave checkpoints off. */
export function checkpointSettingsFrom(config: Partial<AuditConfig>): CheckpointSettings {
  const signingKeyPem = config.AUDIT_SIGNING_KEY ?? (config.AUDIT_SIGNING_KEY_FILE ? readFileSync(config.AUDIT_SIGNING_KEY_FILE, 'utf8') : undefined);
  return { intervalMs: config.AUDIT_CHECKPOINT_INTERVAL_MS ?? 0, signingKeyPem, maxLeaves: CHECKPOINT_MAX_LEAVES };
}

export const DEV_SIGNING_KEY_FILE = 'audit-signing-key.pem';

/**
 * The embedded runner's signing key when none is configured: made once and
 * kept in DATA_DIR (mode 0600), so checkpoints stay verifiable across restarts.
 */
export async function ensureDevSigningKey(dataDir: string): Promise<{ pem: string; path?: string }> {
  const { value, path } = await dataDirSecret(dataDir, DEV_SIGNING_KEY_FILE, newSigningKeyPem);
  return { pem: value, path };
}

export function newSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}
