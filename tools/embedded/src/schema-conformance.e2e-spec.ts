import { schemaConformanceScenarios } from './e2e/schema-conformance.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('the published schema and the server agree, in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('schema-conformance', schemaConformanceScenarios);
});

describe('the published schema and the server agree, in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(schemaConformanceScenarios);
});
