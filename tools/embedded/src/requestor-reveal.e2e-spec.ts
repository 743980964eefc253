import { REVEAL_SETTINGS, requestorRevealScenarios } from './e2e/requestor-reveal.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('the requestor masked and revealed, in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('requestor-reveal', requestorRevealScenarios, REVEAL_SETTINGS);
});

describe('the requestor masked and revealed, in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(requestorRevealScenarios, REVEAL_SETTINGS);
});
