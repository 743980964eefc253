import { z } from 'zod';
import { jsonFromEnv } from '@dsar/platform/config';
import { type RetentionConfig, retentionFields, type RetentionSettings, retentionSettingsFrom } from '@dsar/platform/retention';

/** The file types evidence may have unless configured otherwise: photos and scans of documents. */
export const DEFAULT_EVIDENCE_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/tiff'] as const;

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const DAY_LIST = /^\s*(?:off|\d+(?:\s*,\s*\d+)*)\s*$/;

const dayList = (byDefault: string) =>
  z
    .string()
    .regex(DAY_LIST, 'a comma list of whole days, e.g. 7,14, or `off`')
    .default(byDefault)
    .transform((s) => (s.trim() === 'off' ? [] : [...new Set(s.split(',').map((d) => Number(d.trim())))].sort((a, b) => a - b)))
    .refine((days) => days.every((d) => d >= 1 && d <= 365), 'each day must be 1 to 365');

/** One tenant's reminder and expiry rules (VERIFICATION_TENANT_SETTINGS). */
const tenantRules = z.strictObject({
  reminderDays: z.array(z.number().int().min(1).max(365)).max(20).optional(),
  expiryDays: z.number().int().min(0).max(365).optional(),
});

/** The verification service's settings (README configuration table), shared by its app and the embedded runner. */
export const verificationFields = {
  /** The retention sweep of `verification_evidence` (docs/retention.md). */
  ...retentionFields,
  /** Days after a case opens on which the person is reminded while it is pending: a comma list, or `off`. */
  VERIFICATION_REMINDER_DAYS: dayList('7,14'),
  /** Days after a case opens when a case still pending expires and the request is refused (identity_not_verified); 0 turns expiry off. */
  VERIFICATION_EXPIRY_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** Per-tenant overrides, as JSON: `{"tenant-a": {"reminderDays": [3], "expiryDays": 10}}`. */
  VERIFICATION_TENANT_SETTINGS: jsonFromEnv('must be a JSON object of tenant ids to {reminderDays, expiryDays}').pipe(z.record(z.string().min(1), tenantRules)),
  /** How often the reminder and expiry sweep runs, in milliseconds; 0 turns it off. */
  VERIFICATION_MONITOR_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** The largest evidence file accepted, in bytes (default 20 MiB). */
  EVIDENCE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(1024 ** 3)
    .default(20 * 1024 ** 2),
  /** The media types evidence may have: a comma list. */
  EVIDENCE_CONTENT_TYPES: z
    .string()
    .default(DEFAULT_EVIDENCE_CONTENT_TYPES.join(','))
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((t) => t.trim().toLowerCase())
          .filter(Boolean),
      ),
    ])
    .refine((types) => types.length > 0 && types.every((t) => MEDIA_TYPE.test(t)), 'a comma list of media types, e.g. application/pdf,image/jpeg'),
};

export interface VerificationConfig extends RetentionConfig {
  VERIFICATION_REMINDER_DAYS: number[];
  VERIFICATION_EXPIRY_DAYS: number;
  VERIFICATION_TENANT_SETTINGS: Record<string, { reminderDays?: number[]; expiryDays?: number }>;
  VERIFICATION_MONITOR_INTERVAL_MS: number;
  EVIDENCE_MAX_BYTES: number;
  EVIDENCE_CONTENT_TYPES: string[];
}

export interface VerificationSettings {
  retention: RetentionSettings;
  reminderDays: readonly number[];
  expiryDays: number;
  tenants: Readonly<Record<string, { reminderDays?: number[]; expiryDays?: number }>>;
  monitorIntervalMs: number;
  evidenceMaxBytes: number;
  evidenceContentTypes: readonly string[];
  /** Cases looked at per sweep query. */
  batchSize: number;
}

export const VERIFICATION_SETTINGS = Symbol('VERIFICATION_SETTINGS');

/** The settings from configuration; absent values take the documented defaults, with the sweep off. */
export function verificationSettingsFrom(config: Partial<VerificationConfig>): VerificationSettings {
  return {
    reminderDays: config.VERIFICATION_REMINDER_DAYS ?? [7, 14],
    expiryDays: config.VERIFICATION_EXPIRY_DAYS ?? 30,
    tenants: config.VERIFICATION_TENANT_SETTINGS ?? {},
    monitorIntervalMs: config.VERIFICATION_MONITOR_INTERVAL_MS ?? 0,
    evidenceMaxBytes: config.EVIDENCE_MAX_BYTES ?? 20 * 1024 ** 2,
    evidenceContentTypes: config.EVIDENCE_CONTENT_TYPES ?? [...DEFAULT_EVIDENCE_CONTENT_TYPES],
    batchSize: 200,
    retention: retentionSettingsFrom(config),
  };
}
