import { webhookScenarios, WEBHOOK_SETTINGS } from './e2e/webhooks.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('inbound webhooks in embedded mode (PGlite, in-memory bus)', () => {
  withEmbeddedSystem('webhooks', (getSystem) => webhookScenarios(getSystem), WEBHOOK_SETTINGS);
});

describe('inbound webhooks in distributed mode (PostgreSQL, Kafka)', () => {
  withDistributedSystem((getSystem) => webhookScenarios(getSystem), WEBHOOK_SETTINGS);
});
