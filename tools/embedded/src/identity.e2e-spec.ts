import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressScanScenarios, IDENTITY_SETTINGS, identityScenarios, keyRotationScenarios } from './e2e/identity.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('finding requests by identity, and duplicates, in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('identity', identityScenarios, IDENTITY_SETTINGS);
});

describe('finding requests by identity, and duplicates, in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(identityScenarios, IDENTITY_SETTINGS);
});

describe('an identity index key rotation with its reindex, across restarts of the embedded system on disk', () => {
  keyRotationScenarios();
});

/*
 * A DATA_DIR on disk, as `npm start` keeps it: PGlite's files and the development secrets under it. Made by the
 * system when it starts, so that a run that leaves these tests out leaves no folder behind.
 */
describe("where a person's address is kept, in embedded mode on disk", () => {
  const dataDir = join(tmpdir(), `dsar-identity-scan-${randomBytes(6).toString('hex')}`);
  withEmbeddedSystem('identity-scan', (getSystem) => addressScanScenarios(getSystem, dataDir), { DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: 0 });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
});
