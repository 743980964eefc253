import { z } from 'zod';
import { type RetentionConfig, retentionFields } from '@dsar/platform/retention';
import type { DeadlineMonitorSettings } from './application/deadline-monitor';

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
  /** The retention sweep of `request_record` (docs/retention.md). */
  ...retentionFields,
};

export interface LifecycleConfig extends RetentionConfig {
  DEADLINE_MONITOR_INTERVAL_MS: number;
  DEADLINE_WARNING_DAYS: number[];
}

/** The monitor's settings from configuration; absent values leave it off. */
export function deadlineMonitorSettingsFrom(config: Partial<LifecycleConfig>): DeadlineMonitorSettings {
  return {
    intervalMs: config.DEADLINE_MONITOR_INTERVAL_MS ?? 0,
    warningDays: config.DEADLINE_WARNING_DAYS ?? [7, 2],
    batchSize: 200,
  };
}
