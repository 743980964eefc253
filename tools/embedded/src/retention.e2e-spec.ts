import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type HostedService, hostService } from '@dsar/platform/host';
import { RetentionSweeper } from '@dsar/platform/retention';
import { notifierServiceWith, notifierSettingsFrom } from '@dsar/services/notifier';
import { retentionReplicaScenarios, retentionScenarios } from './e2e/retention.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** Files go to a directory of the test's own, so that the scenarios can count them on disk. */
function storageDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Sweeps run only when a scenario calls them; the scenarios poll the API, so no rate limit. */
const SETTINGS = { RETENTION_SWEEP_INTERVAL_MS: 0, RATE_LIMIT_PER_MINUTE: 0 };

/*
 * Without an SMTP server the notifier writes each email as an .eml file under DATA_DIR/mail, in either mode: so each
 * system gets a DATA_DIR on disk (in embedded mode, PGlite's database lives there too, as with `npm start`).
 */
describe('retention in embedded mode (PGlite, in-memory bus)', () => {
  const dir = storageDir('retention-embedded');
  const dataDir = storageDir('retention-embedded-data');
  withEmbeddedSystem('retention', (getSystem) => retentionScenarios(getSystem, { storageDir: dir, mailDir: join(dataDir, 'mail') }), { ...SETTINGS, STORAGE_DIR: dir, DATA_DIR: dataDir });
});

describe('retention in distributed mode (PostgreSQL, Kafka)', () => {
  const dir = storageDir('retention-distributed');
  const dataDir = storageDir('retention-distributed-data');
  withDistributedSystem((getSystem) => retentionScenarios(getSystem, { storageDir: dir, mailDir: join(dataDir, 'mail') }), {
    ...SETTINGS,
    STORAGE_DIR: dir,
    DATA_DIR: dataDir,
    STORAGE_MASTER_KEY: randomBytes(32).toString('base64'),
  });
});

describe('retention with two notifier replicas on one PostgreSQL', () => {
  let replica: HostedService;
  withDistributedSystem(
    (getSystem, getConfig) => {
      beforeAll(async () => {
        const config = { ...getConfig(), HOST: '127.0.0.1', PORT: 0 };
        replica = await hostService(notifierServiceWith(notifierSettingsFrom(config)), config, {
          clock: getSystem().clock,
          upstreams: { 'lifecycle-clock': getSystem().services.get('lifecycle-clock')!.url, 'fulfilment-delivery': getSystem().services.get('fulfilment-delivery')!.url },
        });
        await replica.startConsuming();
        replica.startPublishing();
      });
      afterAll(async () => replica?.close());
      retentionReplicaScenarios(getSystem, () => [getSystem().services.get('notifier')!.app.get(RetentionSweeper), replica.app.get(RetentionSweeper)]);
    },
    { ...SETTINGS, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') },
  );
});
