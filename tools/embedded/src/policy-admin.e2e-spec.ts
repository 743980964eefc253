import { policyAdminScenarios } from './e2e/policy-admin.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** The scenarios poll intake until the copy of the pack sets caught up, so no rate limit. */
const SETTINGS = { RATE_LIMIT_PER_MINUTE: 0 };

describe('policy administration in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('policy-admin', (getSystem) => policyAdminScenarios(getSystem), SETTINGS);
});

describe('policy administration in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem((getSystem) => policyAdminScenarios(getSystem, { distributed: true }), SETTINGS);
});
