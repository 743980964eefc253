import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { RequestClosures, type RetentionSettings, retentionParts } from '@dsar/platform/retention';
import { DELIVERY_CONTROLLERS, DELIVERY_PROVIDERS } from './delivery';
import { FULFILMENT_CONTROLLERS, FULFILMENT_PROVIDERS } from './fulfilment';
import { TASK_CONTROLLERS, TASK_PROVIDERS } from './tasks';
import { DATA_SYSTEM_CONTROLLERS, DATA_SYSTEM_PROVIDERS } from './data-systems';
import { ArtifactPurger } from './fulfilment/application/artifact-purger';
import { DeliveryLogPurger } from './delivery/application/delivery-log-purger';

/** fulfilment-delivery: manifests and their artifacts, review, fulfilment, and the step-up gated delivery. */
@Module({})
export class FulfilmentDeliveryModule {
  /** The module with its settings providers, the storage module that provides FileStorage, and its retention sweep (`fulfilment_artifact`, `delivery_log`). */
  static with(settings: Provider[], storage: DynamicModule, retention: RetentionSettings): DynamicModule {
    const parts = retentionParts([ArtifactPurger, DeliveryLogPurger], retention);
    return {
      module: FulfilmentDeliveryModule,
      imports: [storage],
      controllers: [...FULFILMENT_CONTROLLERS, ...DELIVERY_CONTROLLERS, ...DATA_SYSTEM_CONTROLLERS, ...TASK_CONTROLLERS, ...parts.controllers] as Type[],
      providers: [
        ...settings,
        ...(FULFILMENT_PROVIDERS as Provider[]),
        ...(DELIVERY_PROVIDERS as Provider[]),
        ...(DATA_SYSTEM_PROVIDERS as Provider[]),
        ...(TASK_PROVIDERS as Provider[]),
        RequestClosures,
        ...parts.providers,
      ],
      exports: [...(FULFILMENT_PROVIDERS as Provider[]), ...(DELIVERY_PROVIDERS as Provider[]), ...(DATA_SYSTEM_PROVIDERS as Provider[]), ...(TASK_PROVIDERS as Provider[])],
    };
  }
}
