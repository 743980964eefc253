import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dataSystemRegistryScenarios } from './e2e/data-system-registry.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** Files go to a directory of the test's own, so that the scenarios can look for the webhook secrets on disk. */
function storageDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** https only, as in production: the scenarios check that an http webhook URL is refused. */
const SETTINGS = { DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: false, RATE_LIMIT_PER_MINUTE: 0 };

describe('the data-system registry in embedded mode (PGlite, in-memory bus)', () => {
  const dir = storageDir('registry-embedded');
  withEmbeddedSystem('data-system-registry', (getSystem) => dataSystemRegistryScenarios(getSystem, { storageDir: dir }), { ...SETTINGS, STORAGE_DIR: dir });
});

describe('the data-system registry in distributed mode (PostgreSQL, Kafka)', () => {
  const dir = storageDir('registry-distributed');
  withDistributedSystem((getSystem) => dataSystemRegistryScenarios(getSystem, { storageDir: dir }), { ...SETTINGS, STORAGE_DIR: dir, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') });
});
