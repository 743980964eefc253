import { newSigningKeyPem } from '@dsar/services/audit-ledger';
import { authorizationMatrixScenarios, matrixApiKeys } from './e2e/authorization-matrix.scenarios';
import { withEmbeddedSystem } from './e2e/systems';

/**
 * The authorization matrix (issue 35, finding 15) in embedded mode: authorization is decided by the gateway and
 * the services' own checks, which are the same code in both modes, and the matrix's some 1,500 calls stay well
 * within the time of one suite. Its own keys; no rate limit; checkpoints when the matrix makes them; a pack version
 * takes effect on one admin's word, so that every tenant has an upgrade proposal in few steps.
 */
const SETTINGS = {
  DSAR_API_KEYS: matrixApiKeys(),
  RATE_LIMIT_PER_MINUTE: 0,
  RETENTION_SWEEP_INTERVAL_MS: 0,
  AUDIT_SIGNING_KEY: newSigningKeyPem(),
  AUDIT_CHECKPOINT_INTERVAL_MS: 86_400_000,
  POLICY_UPGRADE_FOUR_EYES: false,
};

describe('the authorization matrix, from the route table, in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('authorization-matrix', authorizationMatrixScenarios, SETTINGS);
});
