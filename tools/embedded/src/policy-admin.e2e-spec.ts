import { newSigningKeyPem } from '@dsar/services/audit-ledger';
import { policyAdminScenarios } from './e2e/policy-admin.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/**
 * The scenarios poll intake until the copy of the pack sets caught up, so no rate limit; checkpoints when a scenario
 * runs them. Tenant B has four eyes on policy changes off, tenant A the default (on).
 */
const SETTINGS = {
  RATE_LIMIT_PER_MINUTE: 0,
  AUDIT_SIGNING_KEY: newSigningKeyPem(),
  AUDIT_CHECKPOINT_INTERVAL_MS: 86_400_000,
  POLICY_TENANT_SETTINGS: { 'tenant-b': { upgradeFourEyes: false } },
};

describe('policy administration in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('policy-admin', (getSystem) => policyAdminScenarios(getSystem), SETTINGS);
});

describe('policy administration in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem((getSystem) => policyAdminScenarios(getSystem, { distributed: true }), SETTINGS);
});
