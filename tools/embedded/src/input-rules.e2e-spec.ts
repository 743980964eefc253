import { inputRulesScenarios } from './e2e/input-rules.scenarios';
import { queryRulesScenarios } from './e2e/query-rules.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('input rules in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('input-rules', (getSystem) => {
    inputRulesScenarios(getSystem);
    describe('unknown query parameters', () => queryRulesScenarios(getSystem));
  });
});

describe('input rules in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem((getSystem) => {
    inputRulesScenarios(getSystem);
    describe('unknown query parameters', () => queryRulesScenarios(getSystem));
  });
});
