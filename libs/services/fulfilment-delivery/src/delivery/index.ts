import type { Provider } from '@nestjs/common';
import { LifecycleClient } from '@dsar/platform/http';
import { DeliveryController } from './api/delivery.controller';
import { PortalController } from './api/portal.controller';
import { ArtifactDelivery } from './application/artifact-delivery';
import { DeliverableArtifacts } from './application/deliverable-artifacts';
import { DeliveryLinks } from './application/delivery-links';
import { DeliveryLog } from './application/delivery-log';
import { DeliveryPreparations } from './application/delivery-preparations';
import { DeliveryRequests } from './application/delivery-requests';
import { DownloadRefusalBudget } from './application/download-refusal-budget';
import { StepUp } from './application/step-up';
import { DeliveryLogEntryEntity } from './infrastructure/delivery-log-entry.entity';
import { DeliveryPreparationEntity } from './infrastructure/delivery-preparation.entity';
import { ManifestArtifacts } from './infrastructure/manifest-artifacts';
import { Delivery1763700000410 } from './infrastructure/migrations/1763700000410-delivery';
import { DeliveryLogRepeats1763700000420 } from './infrastructure/migrations/1763700000420-delivery-log-repeats';
import { DeliveryLinks1763700000470 } from './infrastructure/migrations/1763700000470-delivery-links';
import { StepUpChallengeEntity } from './infrastructure/step-up-challenge.entity';

export { ArtifactDelivery } from './application/artifact-delivery';
export { DeliverableArtifacts, type DeliverableArtifact } from './application/deliverable-artifacts';
export { DeliveryLog } from './application/delivery-log';
export { DeliveryPreparations } from './application/delivery-preparations';
export { StepUp } from './application/step-up';
export { DELIVERY_SETTINGS, type DeliveryConfig, deliveryFields, type DeliverySettings, deliverySettingsFrom, deliverySettingsProvider } from './delivery-settings';

/** Delivery: preparation, address check, the step-up gate, gated downloads, the links of the person's download page and logs: controllers, providers, entities and migrations. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const DELIVERY_CONTROLLERS: Function[] = [DeliveryController, PortalController];
export const DELIVERY_PROVIDERS: Provider[] = [
  LifecycleClient,
  { provide: DeliverableArtifacts, useClass: ManifestArtifacts },
  DeliveryRequests,
  DeliveryLog,
  DeliveryPreparations,
  DownloadRefusalBudget,
  StepUp,
  ArtifactDelivery,
  DeliveryLinks,
];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const DELIVERY_ENTITIES: Function[] = [DeliveryPreparationEntity, StepUpChallengeEntity, DeliveryLogEntryEntity];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const DELIVERY_MIGRATIONS: Function[] = [Delivery1763700000410, DeliveryLogRepeats1763700000420, DeliveryLinks1763700000470];
