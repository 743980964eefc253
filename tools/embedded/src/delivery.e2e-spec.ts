import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@dsar/platform/clock';
import { DELIVERY_START, deliveryScenarios } from './e2e/delivery.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** The scenarios move a frozen clock themselves. */
const frozen = () => new ManualClock(DELIVERY_START, { running: false });

/** Artifact files of the distributed run go to a directory of the test's own. */
function storageDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('delivery in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('delivery', (getSystem) => deliveryScenarios(getSystem), {}, { clock: frozen() });
});

describe('delivery in distributed mode (PostgreSQL, Kafka)', () => {
  const dir = storageDir('delivery-distributed');
  withDistributedSystem((getSystem) => deliveryScenarios(getSystem), { STORAGE_DIR: dir, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') }, { clock: frozen() });
});
