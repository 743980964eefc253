import { auditEventDefinitions } from './audit-events';
import { EventCatalog } from './event-catalog';
import { intakeEventDefinitions } from './intake-events';
import { lifecycleEventDefinitions } from './lifecycle-events';
import { requestEventDefinitions } from './request-events';
import { verificationEventDefinitions } from './verification-events';
import { fulfilmentEventDefinitions } from './fulfilment-events';
import { notificationEventDefinitions } from './notification-events';
import { policyEventDefinitions } from './policy-events';
import { retentionEventDefinitions } from './retention-events';
import { taskEventDefinitions } from './task-events';

/** Every domain event type of the product. */
export function domainEventCatalog(): EventCatalog {
  return new EventCatalog([
    ...intakeEventDefinitions,
    ...requestEventDefinitions,
    ...lifecycleEventDefinitions,
    ...verificationEventDefinitions,
    ...fulfilmentEventDefinitions,
    ...taskEventDefinitions,
    ...notificationEventDefinitions,
    ...retentionEventDefinitions,
    ...policyEventDefinitions,
    ...auditEventDefinitions,
  ]);
}
