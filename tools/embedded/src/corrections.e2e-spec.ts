import { correctionScenarios } from './e2e/corrections.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('correcting a request in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('corrections', correctionScenarios);
});

describe('correcting a request in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(correctionScenarios);
});
