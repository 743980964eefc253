import { z } from 'zod';

/** The retention sweep of a service that owns a class (README configuration; docs/retention.md). */
export const retentionFields = {
  /** How often the service sweeps its classes for records past their retention; 0 turns the sweep off. */
  RETENTION_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400_000)
    .default(3_600_000),
  /** Groups of records (a request's, one class) purged per page of a sweep. */
  RETENTION_SWEEP_BATCH: z.coerce.number().int().min(1).max(10_000).default(100),
};

export interface RetentionSettings {
  intervalMs: number;
  batchSize: number;
}

export const RETENTION_SETTINGS = Symbol('RETENTION_SETTINGS');

export interface RetentionConfig {
  RETENTION_SWEEP_INTERVAL_MS?: number;
  RETENTION_SWEEP_BATCH?: number;
}

/** The settings from configuration; without an interval (tooling, migrations) the sweep does not run on its own. */
export function retentionSettingsFrom(config: RetentionConfig): RetentionSettings {
  return { intervalMs: config.RETENTION_SWEEP_INTERVAL_MS ?? 0, batchSize: config.RETENTION_SWEEP_BATCH ?? 100 };
}
