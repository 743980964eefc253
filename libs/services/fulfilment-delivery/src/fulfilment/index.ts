import { LifecycleClient } from '@dsar/platform/http';
import { FulfilmentController } from './api/fulfilment.controller';
import { Artifacts } from './application/artifacts';
import { Fulfilments } from './application/fulfilments';
import { Manifests } from './application/manifests';
import { RequestFulfilledHandler } from './events/request-fulfilled.handler';
import { ArtifactEntity, ArtifactVersionEntity } from './infrastructure/artifact.entity';
import { ManifestChangeEntity, ManifestEntity } from './infrastructure/manifest.entity';
import { Fulfilment1763700000400 } from './infrastructure/migrations/1763700000400-fulfilment';
import { ArtifactDisplayNameAndRedactions1763700000430 } from './infrastructure/migrations/1763700000430-artifact-display-name-and-redactions';
import { ArtifactTask1763700000460 } from './infrastructure/migrations/1763700000460-artifact-task';

export { Artifacts } from './application/artifacts';
export { Fulfilments } from './application/fulfilments';
export { Manifests } from './application/manifests';
export {
  DEFAULT_ARTIFACT_MAX_BYTES,
  FULFILMENT_SETTINGS,
  type FulfilmentConfig,
  fulfilmentFields,
  type FulfilmentSettings,
  fulfilmentSettingsFrom,
  fulfilmentSettingsProviders,
} from './fulfilment-settings';

/**
 * The manifest, its artifacts, their review and the fulfilment: controllers, providers, entities and migrations.
 * The module provides FULFILMENT_SETTINGS (fulfilmentSettingsProviders) and FileStorage (the storage module).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const FULFILMENT_CONTROLLERS: Function[] = [FulfilmentController, RequestFulfilledHandler];
export const FULFILMENT_PROVIDERS: unknown[] = [LifecycleClient, Manifests, Artifacts, Fulfilments];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const FULFILMENT_ENTITIES: Function[] = [ManifestEntity, ManifestChangeEntity, ArtifactEntity, ArtifactVersionEntity];
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const FULFILMENT_MIGRATIONS: Function[] = [Fulfilment1763700000400, ArtifactDisplayNameAndRedactions1763700000430, ArtifactTask1763700000460];
