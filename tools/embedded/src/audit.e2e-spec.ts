import { newSigningKeyPem } from '@dsar/services/audit-ledger';
import { auditScenarios } from './e2e/audit.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

/** Checkpoints are made by hand in the scenarios: a configured key, and an interval that never comes round during a test. */
const checkpointSettings = { AUDIT_SIGNING_KEY: newSigningKeyPem(), AUDIT_CHECKPOINT_INTERVAL_MS: 86_400_000 };

describe('audit chain in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('audit', auditScenarios, checkpointSettings);
});

describe('audit chain in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem(auditScenarios, checkpointSettings);
});
