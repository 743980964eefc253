import { auditEventDefinitions } from './audit-events';
import { EventCatalog } from './event-catalog';
import { lifecycleEventDefinitions } from './lifecycle-events';
import { requestEventDefinitions } from './request-events';
import { verificationEventDefinitions } from './verification-events';
import { fulfilmentEventDefinitions } from './fulfilment-events';
import { notificationEventDefinitions } from './notification-events';

/** Every domain event type of the product. */
export function domainEventCatalog(): EventCatalog {
  return new EventCatalog([...requestEventDefinitions, ...lifecycleEventDefinitions, ...verificationEventDefinitions, ...fulfilmentEventDefinitions, ...notificationEventDefinitions, ...auditEventDefinitions]);
}
