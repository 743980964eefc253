import { requestLookupScenarios } from './e2e/request-lookup.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('requests by reference, and the queue filters, in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('request-lookup', requestLookupScenarios);
});

describe('requests by reference, and the queue filters, in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(requestLookupScenarios);
});
