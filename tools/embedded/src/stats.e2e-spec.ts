import { STATS_SETTINGS, statsClock, statsScenarios } from './e2e/stats.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe("the tenant's figures in embedded mode (PGlite, in-memory bus)", () => {
  withEmbeddedSystem('stats', statsScenarios, STATS_SETTINGS, { clock: statsClock() });
});

describe("the tenant's figures in distributed mode (PostgreSQL, Kafka)", () => {
  withDistributedSystem(statsScenarios, STATS_SETTINGS, { clock: statsClock() });
});
