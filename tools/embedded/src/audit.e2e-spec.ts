import { newSigningKeyPem } from '@dsar/services/audit-ledger';
import { auditCheckpointScenarios } from './e2e/audit-checkpoints.scenarios';
import { AUDIT_JWT_SECRET, auditScenarios } from './e2e/audit.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/**
 * Checkpoints are made by hand in the scenarios: a configured key, and an interval that never comes round during a test.
 * JWTs are taken too, for callers whose `sub` the scenarios choose.
 */
const checkpointSettings = { AUDIT_SIGNING_KEY: newSigningKeyPem(), AUDIT_CHECKPOINT_INTERVAL_MS: 86_400_000, AUTH_JWT_SECRET: AUDIT_JWT_SECRET };

describe('audit chain in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem(
    'audit',
    (system) => {
      auditScenarios(system);
      auditCheckpointScenarios(system);
    },
    checkpointSettings,
  );
});

describe('audit chain in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem((system) => {
    auditScenarios(system);
    auditCheckpointScenarios(system);
  }, checkpointSettings);
});
