import { LogCapture, logHygieneScenarios } from './e2e/log-hygiene.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/**
 * docs/security.md#what-is-never-logged: every service of the system logs at trace level into one capture (in one
 * process the first service's logger serves them all), stdout and stderr included.
 */
const capture = new LogCapture();
const settings = { LOG_LEVEL: 'trace', RATE_LIMIT_PER_MINUTE: 0 };

beforeAll(() => capture.captureStdio());
afterAll(() => capture.stopStdio());

describe('log hygiene in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('log-hygiene', (getSystem) => logHygieneScenarios(getSystem, capture), settings, { logDestination: capture.destination });
});

describe('log hygiene in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem((getSystem) => logHygieneScenarios(getSystem, capture), settings, { logDestination: capture.destination });
});
