import { apiKeyListSchema } from '@dsar/platform/auth';
import { createTestDatabase, createTestTopics, distributedTestConfig, testHostConfig } from '@dsar/platform/testing';
import { clockScenarios } from './e2e/clock.scenarios';
import { API_KEYS_JSON } from './e2e/gateway-intake.scenarios';
import { policyScenarios } from './e2e/policies.scenarios';
import { type RunningSystem, startSystem } from './system';

const apiKeys = apiKeyListSchema.parse(JSON.parse(API_KEYS_JSON));
const gatewaySettings = { DSAR_API_KEYS: apiKeys };

describe('legal clock and policy packs in embedded mode (PGlite, in-memory bus)', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ ...testHostConfig({ DATA_DIR: 'memory://clock-policies' }), ...gatewaySettings });
  });
  afterAll(async () => system?.close());
  clockScenarios(() => system);
  policyScenarios(() => system);
});

describe('legal clock and policy packs in distributed mode (PostgreSQL, Kafka)', () => {
  let system: RunningSystem;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = await createTestTopics();
    system = await startSystem({ ...distributedTestConfig(db.url, prefix, { OUTBOX_POLL_MS: 250 }), ...gatewaySettings });
  });
  afterAll(async () => {
    await system?.close();
    await db?.drop();
  });
  clockScenarios(() => system);
  policyScenarios(() => system);
});
