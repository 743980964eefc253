import { httpEdgeScenarios } from './e2e/http-edge.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** A small body limit makes the zip bomb cheap to build. */
const settings = { HTTP_BODY_LIMIT: '100kb' };

describe('the HTTP edge in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('http-edge', httpEdgeScenarios, settings);
});

describe('the HTTP edge in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(httpEdgeScenarios, settings);
});
