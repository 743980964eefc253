import { apiKeyListSchema } from '@dsar/platform/auth';
import { ManualClock } from '@dsar/platform/clock';
import type { HostConfig } from '@dsar/platform/host';
import { createTestDatabase, createTestTopics, distributedTestConfig, testHostConfig } from '@dsar/platform/testing';
import { type RunningSystem, type SystemConfig, type SystemOptions, startSystem } from '../system';
import { API_KEYS_JSON } from './gateway-intake.scenarios';

/** The test API keys of the scenarios (KEYS in gateway-intake.scenarios). */
export const TEST_GATEWAY_SETTINGS = { DSAR_API_KEYS: apiKeyListSchema.parse(JSON.parse(API_KEYS_JSON)) };

type Extra = Partial<SystemConfig> & Partial<HostConfig>;

/** A system under test, with the clock its services read (the scenarios set and advance it). */
export interface TestSystem extends RunningSystem {
  readonly clock: ManualClock;
}

/** Test system options: a test that needs a frozen or dated clock hands in its own. */
export interface TestSystemOptions extends Omit<SystemOptions, 'clock'> {
  clock?: ManualClock;
}

/**
 * Where the clock of a test system starts: `DSAR_TEST_NOW` (an ISO instant) when set, so that a run can be
 * repeated on any day (the date guard does this for the lifecycle and clock scenarios), else the real time.
 */
export function testNow(): Date {
  const given = process.env.DSAR_TEST_NOW;
  // eslint-disable-next-line no-restricted-syntax -- the one place a test system takes the machine's date
  if (!given) return new Date();
  const at = new Date(given);
  if (Number.isNaN(at.getTime())) throw new Error(`DSAR_TEST_NOW is not an ISO instant: ${given}`);
  return at;
}

function testClockFrom(options: TestSystemOptions): ManualClock {
  return options.clock ?? new ManualClock(testNow());
}

/**
 * Runs `scenarios` against a whole system in embedded mode (PGlite in memory, in-memory bus), started before
 * them and closed after; `settings` add to or override the test configuration.
 */
export function withEmbeddedSystem(dataDir: string, scenarios: (getSystem: () => TestSystem) => void, settings: Extra = {}, options: TestSystemOptions = {}): void {
  let system: TestSystem;
  beforeAll(async () => {
    const clock = testClockFrom(options);
    const running = await startSystem({ ...testHostConfig({ DATA_DIR: `memory://${dataDir}`, ...settings }), ...TEST_GATEWAY_SETTINGS, ...settings }, { ...options, clock });
    system = { ...running, clock };
  });
  afterAll(async () => system?.close());
  scenarios(() => system);
}

/** The same against PostgreSQL (a fresh database) and Kafka (fresh topics), dropped afterwards. */
export function withDistributedSystem(scenarios: (getSystem: () => TestSystem, config: () => SystemConfig) => void, settings: Extra = {}, options: TestSystemOptions = {}): void {
  let system: TestSystem;
  let config: SystemConfig;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
    const prefix = await createTestTopics();
    config = { ...distributedTestConfig(db.url, prefix, { OUTBOX_POLL_MS: 250, ...settings }), ...TEST_GATEWAY_SETTINGS, ...settings };
    const clock = testClockFrom(options);
    system = { ...(await startSystem(config, { ...options, clock })), clock };
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
