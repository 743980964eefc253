import { clockScenarios } from './e2e/clock.scenarios';
import { policyScenarios } from './e2e/policies.scenarios';
import { type TestSystem, withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

const scenarios = (getSystem: () => TestSystem) => {
  clockScenarios(getSystem);
  policyScenarios(getSystem);
};

describe('legal clock and policy packs in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('clock-policies', scenarios);
});

describe('legal clock and policy packs in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(scenarios);
});
