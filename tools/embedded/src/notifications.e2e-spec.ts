import { notificationScenarios, notificationServers } from './e2e/notifications.scenarios';
import { withDistributedSystem, withEmbeddedSystem } from './e2e/systems';

describe('notifications in embedded mode (PGlite, in-memory bus)', () => {
  const settings: Record<string, unknown> = {};
  const servers = notificationServers(settings);
  withEmbeddedSystem('notifications', (getSystem) => notificationScenarios(getSystem, servers), settings);
});

describe('notifications in distributed mode (PostgreSQL, Kafka)', () => {
  const settings: Record<string, unknown> = {};
  const servers = notificationServers(settings);
  withDistributedSystem((getSystem, config) => notificationScenarios(getSystem, servers, config), settings);
});
