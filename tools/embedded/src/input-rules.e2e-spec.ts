import { inputRulesScenarios } from './e2e/input-rules.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('input rules in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('input-rules', inputRulesScenarios);
});

describe('input rules in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(inputRulesScenarios);
});
