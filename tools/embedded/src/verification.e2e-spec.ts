import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '@dsar/platform/clock';
import { type HostedService, hostService } from '@dsar/platform/host';
import { StorageModule } from '@dsar/platform/storage';
import { VerificationMonitor, verificationServiceWith, verificationSettingsFrom } from '@dsar/services/verification';
import { LogCapture } from './e2e/log-hygiene.scenarios';
import { verificationReminderScenarios, verificationScenarios } from './e2e/verification.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** Evidence files go to a directory of the test's own, so that the scenarios can look at them on disk. */
function storageDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The sweep runs only when a scenario calls it. */
const NO_SWEEP = { VERIFICATION_MONITOR_INTERVAL_MS: 0 };
/** Errors are logged (into a capture, not the console), so that a scenario can tell that none was. */
const LOG_ERRORS = { LOG_LEVEL: 'error' };
const REMINDERS = { ...NO_SWEEP, VERIFICATION_REMINDER_DAYS: [3, 7], VERIFICATION_EXPIRY_DAYS: 10 };
const frozen = () => new ManualClock('2026-06-01T09:00:00Z', { running: false });

describe('verification in embedded mode (PGlite, in-memory bus)', () => {
  const dir = storageDir('verification-embedded');
  const logs = new LogCapture();
  withEmbeddedSystem(
    'verification',
    (getSystem) => verificationScenarios(getSystem, { storageDir: dir, logs }),
    { ...NO_SWEEP, ...LOG_ERRORS, STORAGE_DIR: dir },
    { clock: frozen(), logDestination: logs.destination },
  );
});

describe('verification reminders and expiry in embedded mode', () => {
  withEmbeddedSystem('verification-reminders', (getSystem) => verificationReminderScenarios(getSystem, () => [getSystem().services.get('verification')!.app.get(VerificationMonitor)]), REMINDERS, {
    clock: frozen(),
  });
});

describe('verification in distributed mode (PostgreSQL, Kafka)', () => {
  const dir = storageDir('verification-distributed');
  const logs = new LogCapture();
  withDistributedSystem(
    (getSystem) => verificationScenarios(getSystem, { storageDir: dir, logs }),
    { ...NO_SWEEP, ...LOG_ERRORS, STORAGE_DIR: dir, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') },
    { clock: frozen(), logDestination: logs.destination },
  );
});

describe('verification reminders and expiry with two replicas on one PostgreSQL', () => {
  const clock = frozen();
  const settings = { ...REMINDERS, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') };
  let replica: HostedService;
  withDistributedSystem(
    (getSystem, getConfig) => {
      beforeAll(async () => {
        const config = { ...getConfig(), HOST: '127.0.0.1', PORT: 0 };
        const definition = verificationServiceWith(verificationSettingsFrom(config), StorageModule.forRoot({ config }));
        replica = await hostService(definition, config, { clock, upstreams: { 'lifecycle-clock': getSystem().services.get('lifecycle-clock')!.url } });
        await replica.startConsuming();
        replica.startPublishing();
      });
      afterAll(async () => replica?.close());
      verificationReminderScenarios(getSystem, () => [getSystem().services.get('verification')!.app.get(VerificationMonitor), replica.app.get(VerificationMonitor)]);
    },
    settings,
    { clock },
  );
});
