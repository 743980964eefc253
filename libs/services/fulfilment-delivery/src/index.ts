import type { DynamicModule, Provider } from '@nestjs/common';
import type { ServiceDefinition } from '@dsar/platform/host';
import { retentionMigrations, RetentionRuleEntity, type RetentionSettings, retentionSettingsFrom } from '@dsar/platform/retention';
import { NO_MASTER_KEY, StorageModule, UnavailableStorage } from '@dsar/platform/storage';
import { DELIVERY_ENTITIES, DELIVERY_MIGRATIONS, deliverySettingsProvider } from './delivery';
import { FULFILMENT_ENTITIES, FULFILMENT_MIGRATIONS, fulfilmentSettingsProviders } from './fulfilment';
import { FulfilmentDeliveryModule } from './fulfilment-delivery.module';
import { TASK_ENTITIES, TASK_MIGRATIONS } from './tasks';
import { DATA_SYSTEM_ENTITIES, DATA_SYSTEM_MIGRATIONS, dataSystemSettingsProvider } from './data-systems';

export { FulfilmentDeliveryModule } from './fulfilment-delivery.module';
export {
  Artifacts,
  DEFAULT_ARTIFACT_MAX_BYTES,
  FULFILMENT_SETTINGS,
  type FulfilmentConfig,
  fulfilmentFields,
  Fulfilments,
  type FulfilmentSettings,
  fulfilmentSettingsFrom,
  fulfilmentSettingsProviders,
  Manifests,
} from './fulfilment';
export { DataSystemTaskEntity, TaskFanout, TaskFiles, Tasks, taskViewOf, TaskWatchdog, WebhookSender } from './tasks';
export { DATA_SYSTEM_SETTINGS, type DataSystemConfig, dataSystemFields, DataSystems, type DataSystemSettings, dataSystemSettingsFrom, dataSystemSettingsProvider } from './data-systems';
export {
  ArtifactDelivery,
  DeliveryLog,
  DeliveryPreparations,
  DELIVERY_SETTINGS,
  type DeliveryConfig,
  deliveryFields,
  type DeliverySettings,
  deliverySettingsFrom,
  deliverySettingsProvider,
  StepUp,
} from './delivery';

/** fulfilment-delivery on the given settings providers, storage module and retention sweep (the app and the embedded runner pass their configuration). */
export function fulfilmentDeliveryServiceWith(settings: Provider[], storage: DynamicModule, retention: RetentionSettings = retentionSettingsFrom({})): ServiceDefinition {
  return {
    name: 'fulfilment-delivery',
    module: FulfilmentDeliveryModule.with(settings, storage, retention),
    persistence: true,
    entities: [...FULFILMENT_ENTITIES, ...DELIVERY_ENTITIES, ...DATA_SYSTEM_ENTITIES, ...TASK_ENTITIES, RetentionRuleEntity],
    migrations: [...retentionMigrations, ...FULFILMENT_MIGRATIONS, ...DELIVERY_MIGRATIONS, ...DATA_SYSTEM_MIGRATIONS, ...TASK_MIGRATIONS],
    calls: ['lifecycle-clock'],
    takesUploads: true,
  };
}

/** fulfilment-delivery without storage (uploads answer 503) on default settings: the definition for migrations and tooling. */
export const fulfilmentDeliveryService: ServiceDefinition = fulfilmentDeliveryServiceWith(
  [...fulfilmentSettingsProviders({}), deliverySettingsProvider({}), dataSystemSettingsProvider({})],
  StorageModule.forRoot({ storage: new UnavailableStorage(NO_MASTER_KEY) }),
);
