import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ManualClock } from '@dsar/platform/clock';
import { fulfilmentScenarios } from './e2e/fulfilment.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** Artifact files go to a directory of the test's own, so that the scenarios can look at them on disk. */
function storageDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dsar-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A small limit makes the 413 cheap to reach; tenant B reviews without four eyes. */
const MAX_BYTES = 1024 * 1024;
const SETTINGS = { ARTIFACT_MAX_BYTES: MAX_BYTES, FULFILMENT_TENANT_SETTINGS: { 'tenant-b': { fourEyes: false } } };
const frozen = () => new ManualClock('2026-06-01T09:00:00Z', { running: false });

describe('fulfilment in embedded mode (PGlite, in-memory bus)', () => {
  const dir = storageDir('fulfilment-embedded');
  withEmbeddedSystem('fulfilment', (getSystem) => fulfilmentScenarios(getSystem, { storageDir: dir, maxBytes: MAX_BYTES }), { ...SETTINGS, STORAGE_DIR: dir }, { clock: frozen() });
});

describe('fulfilment in distributed mode (PostgreSQL, Kafka)', () => {
  const dir = storageDir('fulfilment-distributed');
  withDistributedSystem(
    (getSystem) => fulfilmentScenarios(getSystem, { storageDir: dir, maxBytes: MAX_BYTES }),
    { ...SETTINGS, STORAGE_DIR: dir, STORAGE_MASTER_KEY: randomBytes(32).toString('base64') },
    { clock: frozen() },
  );
});
