import { TENANT_WIDE_JWT_SECRET, tenantWideScenarios } from './e2e/tenant-wide.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/**
 * Sweeps run only when a scenario calls them; the scenarios poll the report, so no rate limit. API keys and JWTs
 * (HS256) side by side; a pack version takes effect without a second admin's approval, so that the scenarios reach
 * an upgrade proposal in few steps (four eyes itself is the policy administration scenarios' subject).
 */
const SETTINGS = { RETENTION_SWEEP_INTERVAL_MS: 0, RATE_LIMIT_PER_MINUTE: 0, AUTH_JWT_SECRET: TENANT_WIDE_JWT_SECRET, POLICY_UPGRADE_FOUR_EYES: false };

describe('tenant-wide routes and principal ids in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('tenant-wide', tenantWideScenarios, SETTINGS);
});

describe('tenant-wide routes and principal ids in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(tenantWideScenarios, SETTINGS);
});
