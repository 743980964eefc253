import { apiKeyListSchema } from '@dsar/platform/auth';
import type { HostConfig } from '@dsar/platform/host';
import { createTestDatabase, createTestTopics, distributedTestConfig, testHostConfig } from '@dsar/platform/testing';
import { type RunningSystem, type SystemConfig, type SystemOptions, startSystem } from '../system';
import { API_KEYS_JSON } from './gateway-intake.scenarios';

/** The test API keys of the scenarios (KEYS in gateway-intake.scenarios). */
export const TEST_GATEWAY_SETTINGS = { DSAR_API_KEYS: apiKeyListSchema.parse(JSON.parse(API_KEYS_JSON)) };

type Extra = Partial<SystemConfig> & Partial<HostConfig>;

/**
 * Runs `scenarios` against a whole system in embedded mode (PGlite in memory, in-memory bus), started before
 * them and closed after; `settings` add to or override the test configuration.
 */
export function withEmbeddedSystem(dataDir: string, scenarios: (getSystem: () => RunningSystem) => void, settings: Extra = {}, options: SystemOptions = {}): void {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ ...testHostConfig({ DATA_DIR: `memory://${dataDir}`, ...settings }), ...TEST_GATEWAY_SETTINGS, ...settings }, options);
  });
  afterAll(async () => system?.close());
  scenarios(() => system);
}

/** The same against PostgreSQL (a fresh database) and Kafka (fresh topics), dropped afterwards. */
export function withDistributedSystem(scenarios: (getSystem: () => RunningSystem, config: () => SystemConfig) => void, settings: Extra = {}, options: SystemOptions = {}): void {
  let system: RunningSystem;
  let config: SystemConfig;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = await createTestTopics();
    config = { ...distributedTestConfig(db.url, prefix, { OUTBOX_POLL_MS: 250, ...settings }), ...TEST_GATEWAY_SETTINGS, ...settings };
    system = await startSystem(config, options);
  });
  afterAll(async () => {
    await system?.close();
    await db?.drop();
  });
  scenarios(
    () => system,
    () => config,
  );
}
