import { z } from 'zod';
import { dataSystemFields, dataSystemSettingsFrom } from './data-system-settings';

const schema = z.object(dataSystemFields);

describe('data system settings', () => {
  it('defaults: 15 min leases, 5 attempts, a watchdog every 30 s, escalation 24 h past due, 10 s webhook calls, https only, fan-out on the first move into in_progress', () => {
    const config = schema.parse({});
    expect(config).toEqual({
      TASK_LEASE_MAX_SECONDS: 900,
      TASK_MAX_ATTEMPTS: 5,
      TASK_WATCHDOG_INTERVAL_MS: 30_000,
      TASK_ESCALATE_AFTER_HOURS: 24,
      DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: 10_000,
      DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: false,
      FANOUT_REQUIRES_VERIFICATION: false,
    });
    expect(dataSystemSettingsFrom(config)).toEqual({
      taskLeaseMaxSeconds: 900,
      taskMaxAttempts: 5,
      taskWatchdogIntervalMs: 30_000,
      taskEscalateAfterHours: 24,
      webhookTimeoutMs: 10_000,
      webhookAllowHttp: false,
      fanoutRequiresVerification: false,
    });
    expect(dataSystemSettingsFrom({})).toEqual(dataSystemSettingsFrom(config));
  });

  it("reads the environment's strings", () => {
    const config = schema.parse({
      TASK_LEASE_MAX_SECONDS: '60',
      TASK_MAX_ATTEMPTS: '2',
      TASK_WATCHDOG_INTERVAL_MS: '1000',
      TASK_ESCALATE_AFTER_HOURS: '1',
      DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: '500',
      DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: 'true',
      FANOUT_REQUIRES_VERIFICATION: 'true',
    });
    expect(dataSystemSettingsFrom(config)).toEqual({
      taskLeaseMaxSeconds: 60,
      taskMaxAttempts: 2,
      taskWatchdogIntervalMs: 1000,
      taskEscalateAfterHours: 1,
      webhookTimeoutMs: 500,
      webhookAllowHttp: true,
      fanoutRequiresVerification: true,
    });
  });

  it('refuses what it cannot use', () => {
    for (const bad of [
      { TASK_LEASE_MAX_SECONDS: '0' },
      { TASK_LEASE_MAX_SECONDS: '15m' },
      { TASK_MAX_ATTEMPTS: '0' },
      { TASK_WATCHDOG_INTERVAL_MS: '10' },
      { TASK_ESCALATE_AFTER_HOURS: '-1' },
      { DATA_SYSTEM_WEBHOOK_TIMEOUT_MS: '1.5' },
      { DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: 'maybe' },
    ]) {
      expect({ bad, ok: schema.safeParse(bad).success }).toEqual({ bad, ok: false });
    }
  });
});
