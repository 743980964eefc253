import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataSystemScenarios, dataSystemSettings } from './e2e/data-systems.scenarios';
import { notificationServers } from './e2e/notifications.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** Artifact files go to a directory of the test's own. */
function storageDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// The test clock runs from the real time: task leases and tokens run on the database's clock (a mechanism, like the
// outbox's), due dates and timeouts on the domain clock, which the SLA scenario moves ahead.

describe('data systems in embedded mode (PGlite, in-memory bus; the example shop on PostgreSQL)', () => {
  const settings: Record<string, unknown> = dataSystemSettings({ STORAGE_DIR: storageDir('data-systems-embedded') });
  const servers = notificationServers(settings);
  withEmbeddedSystem('data-systems', (getSystem) => dataSystemScenarios(getSystem, { config: () => settings, servers }), settings);
});

describe('data systems in distributed mode (PostgreSQL, Kafka)', () => {
  const settings: Record<string, unknown> = dataSystemSettings({ STORAGE_DIR: storageDir('data-systems-distributed') });
  const servers = notificationServers(settings);
  withDistributedSystem((getSystem, config) => dataSystemScenarios(getSystem, { config, servers }), settings);
});
