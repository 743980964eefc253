import type { Provider } from '@nestjs/common';
import { z } from 'zod';
import { booleanFromEnv } from '@dsar/platform/config';

/** The defaults of the task settings (README configuration table, docs/data-systems.md). */
export const DATA_SYSTEM_DEFAULTS = {
  TASK_LEASE_MAX_SECONDS: 900,
  TASK_MAX_ATTEMPTS: 5,
  TASK_WATCHDOG_INTERVAL_MS: 30_000,
  TASK_ESCALATE_AFTER_HOURS: 24,
  DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: 10_000,
  DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: false,
  FANOUT_REQUIRES_VERIFICATION: false,
} as const;

/** The data systems and tasks part of fulfilment-delivery's settings (README configuration table), shared by its app and the embedded runner. */
export const dataSystemFields = {
  /** The longest lease a claim or heartbeat gets, in seconds (a longer `leaseSeconds` is cut to it). */
  TASK_LEASE_MAX_SECONDS: z.coerce.number().int().min(10).max(86_400).default(DATA_SYSTEM_DEFAULTS.TASK_LEASE_MAX_SECONDS),
  /** Claims a task gets (by connectors, or by the webhook sender) before it ends `error` (`attempts_exhausted`). */
  TASK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(DATA_SYSTEM_DEFAULTS.TASK_MAX_ATTEMPTS),
  /** How often the task watchdog looks for lapsed leases, overdue and timed-out tasks, and tasks of deleted systems. */
  TASK_WATCHDOG_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(DATA_SYSTEM_DEFAULTS.TASK_WATCHDOG_INTERVAL_MS),
  /** Hours past a task's due date before operators are alerted (or at its timeout, whichever comes first). */
  TASK_ESCALATE_AFTER_HOURS: z.coerce.number().int().min(1).max(8760).default(DATA_SYSTEM_DEFAULTS.TASK_ESCALATE_AFTER_HOURS),
  /** How long a webhook system has to answer one signed call before the try counts as failed. */
  DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(DATA_SYSTEM_DEFAULTS.DATA_SYSTEM_WEBHOOK_TIMEOUT_MS),
  /** Whether a webhook URL may be `http:` (tests and `npm start` on localhost); otherwise only `https:` is accepted. */
  DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: booleanFromEnv.default(DATA_SYSTEM_DEFAULTS.DATA_SYSTEM_WEBHOOK_ALLOW_HTTP),
  /**
   * Whether only a verified request is sent to the data systems (its `dsar.request.verified.v1`); otherwise a request
   * is sent on its first move into `in_progress` (acknowledged, verified, clarified, reopened).
   */
  FANOUT_REQUIRES_VERIFICATION: booleanFromEnv.default(DATA_SYSTEM_DEFAULTS.FANOUT_REQUIRES_VERIFICATION),
};

export interface DataSystemConfig {
  TASK_LEASE_MAX_SECONDS: number;
  TASK_MAX_ATTEMPTS: number;
  TASK_WATCHDOG_INTERVAL_MS: number;
  TASK_ESCALATE_AFTER_HOURS: number;
  DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: number;
  DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: boolean;
  FANOUT_REQUIRES_VERIFICATION: boolean;
}

/** What the registry, the tasks, the webhook sender and the watchdog read (inject DATA_SYSTEM_SETTINGS). */
export interface DataSystemSettings {
  /** Longest lease of a claim or heartbeat, in seconds. */
  taskLeaseMaxSeconds: number;
  /** Claims per task before it ends `error` (fatal, `attempts_exhausted`); pinned on each task when it is made. */
  taskMaxAttempts: number;
  /** Interval of the task watchdog, in milliseconds. */
  taskWatchdogIntervalMs: number;
  /** Hours past the due date before the escalation (operators), unless the timeout comes first. */
  taskEscalateAfterHours: number;
  /** Timeout of one webhook call, in milliseconds. */
  webhookTimeoutMs: number;
  /** Whether `http:` webhook URLs are accepted (PUT /data-systems) and called. */
  webhookAllowHttp: boolean;
  /** Whether only a verified request fans out (else its first move into in_progress does). */
  fanoutRequiresVerification: boolean;
}

export const DATA_SYSTEM_SETTINGS = Symbol('DATA_SYSTEM_SETTINGS');

/** The settings from configuration; absent values take the documented defaults. */
export function dataSystemSettingsFrom(config: Partial<DataSystemConfig>): DataSystemSettings {
  return {
    taskLeaseMaxSeconds: config.TASK_LEASE_MAX_SECONDS ?? DATA_SYSTEM_DEFAULTS.TASK_LEASE_MAX_SECONDS,
    taskMaxAttempts: config.TASK_MAX_ATTEMPTS ?? DATA_SYSTEM_DEFAULTS.TASK_MAX_ATTEMPTS,
    taskWatchdogIntervalMs: config.TASK_WATCHDOG_INTERVAL_MS ?? DATA_SYSTEM_DEFAULTS.TASK_WATCHDOG_INTERVAL_MS,
    taskEscalateAfterHours: config.TASK_ESCALATE_AFTER_HOURS ?? DATA_SYSTEM_DEFAULTS.TASK_ESCALATE_AFTER_HOURS,
    webhookTimeoutMs: config.DATA_SYSTEM_WEBHOOK_TIMEOUT_MS ?? DATA_SYSTEM_DEFAULTS.DATA_SYSTEM_WEBHOOK_TIMEOUT_MS,
    webhookAllowHttp: config.DATA_SYSTEM_WEBHOOK_ALLOW_HTTP ?? DATA_SYSTEM_DEFAULTS.DATA_SYSTEM_WEBHOOK_ALLOW_HTTP,
    fanoutRequiresVerification: config.FANOUT_REQUIRES_VERIFICATION ?? DATA_SYSTEM_DEFAULTS.FANOUT_REQUIRES_VERIFICATION,
  };
}

/** The provider of the data system settings, for the settings list of `fulfilmentDeliveryServiceWith`. */
export function dataSystemSettingsProvider(config: Partial<DataSystemConfig>): Provider {
  return { provide: DATA_SYSTEM_SETTINGS, useValue: dataSystemSettingsFrom(config) };
}
