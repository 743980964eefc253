import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_DUPLICATE_WINDOW_DAYS } from '@dsar/contracts';
import { type IdentityIndexKeyConfig, identityIndexKeysFrom } from '@dsar/platform/config';
import { type RetentionConfig, retentionFields } from '@dsar/platform/retention';
import type { DeadlineMonitorSettings } from './application/deadline-monitor';
import type { IdentityIndexSettings } from './application/request-identities';

/** lifecycle-clock's own settings (README configuration table), shared by its app and the embedded runner. */
export const lifecycleFields = {
  /** How often the deadline monitor scans, in milliseconds; 0 turns it off. */
  DEADLINE_MONITOR_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  /** Warning thresholds, in days before a deadline: a comma list such as `7,2`. */
  DEADLINE_WARNING_DAYS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'a comma list of whole days, e.g. 7,2')
    .default('7,2')
    .transform((s) => s.split(',').map((d) => Number(d.trim())))
    .refine((days) => days.every((d) => d >= 1 && d <= 365), 'each threshold must be 1 to 365 days'),
  /** How far back, in days, intake looks for an open request of the same person, type and jurisdiction to mark a new one a duplicate of (docs/identity.md#duplicates); 0 marks none. */
  IDENTITY_DUPLICATE_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(DEFAULT_DUPLICATE_WINDOW_DAYS),
  /** The retention sweep of `request_record` (docs/retention.md). */
  ...retentionFields,
};

export interface LifecycleConfig extends RetentionConfig {
  DEADLINE_MONITOR_INTERVAL_MS: number;
  DEADLINE_WARNING_DAYS: number[];
  IDENTITY_DUPLICATE_WINDOW_DAYS: number;
}

/** The monitor's settings from configuration; absent values leave it off. */
export function deadlineMonitorSettingsFrom(config: Partial<LifecycleConfig>): DeadlineMonitorSettings {
  return {
    intervalMs: config.DEADLINE_MONITOR_INTERVAL_MS ?? 0,
    warningDays: config.DEADLINE_WARNING_DAYS ?? [7, 2],
    batchSize: 200,
  };
}

/**
 * The key a process without IDENTITY_INDEX_KEY indexes under: made once per process, so that every lifecycle-clock it
 * hosts agrees. Only a library-hosted test runs so: the app's configuration requires the key, and the embedded runner
 * keeps one in DATA_DIR.
 */
let processIdentityKey: string | undefined;

/** The identity index's settings from configuration (docs/identity.md). */
export function identityIndexSettingsFrom(config: IdentityIndexKeyConfig & { IDENTITY_DUPLICATE_WINDOW_DAYS?: number }): IdentityIndexSettings {
  const configured = identityIndexKeysFrom(config);
  processIdentityKey ??= randomBytes(32).toString('base64url');
  return {
    keys: configured.length > 0 ? configured : [processIdentityKey],
    duplicateWindowDays: config.IDENTITY_DUPLICATE_WINDOW_DAYS ?? DEFAULT_DUPLICATE_WINDOW_DAYS,
  };
}
