import { replyMailServer, webhookScenarios, WEBHOOK_SETTINGS } from './e2e/webhooks.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('inbound webhooks in embedded mode (PGlite, in-memory bus)', () => {
  const settings: Record<string, unknown> = { ...WEBHOOK_SETTINGS };
  const mail = replyMailServer(settings);
  withEmbeddedSystem('webhooks', (getSystem) => webhookScenarios(getSystem, mail), settings);
});

describe('inbound webhooks in distributed mode (PostgreSQL, Kafka)', () => {
  const settings: Record<string, unknown> = { ...WEBHOOK_SETTINGS };
  const mail = replyMailServer(settings);
  withDistributedSystem((getSystem) => webhookScenarios(getSystem, mail), settings);
});
