import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { DELIVERY_CONTROLLERS, DELIVERY_PROVIDERS } from './delivery';
import { FULFILMENT_CONTROLLERS, FULFILMENT_PROVIDERS } from './fulfilment';

/** fulfilment-delivery: manifests and their artifacts, review, fulfilment, and the step-up gated delivery. */
@Module({})
export class FulfilmentDeliveryModule {
  /** The module with its settings providers and the storage module that provides FileStorage. */
  static with(settings: Provider[], storage: DynamicModule): DynamicModule {
    return {
      module: FulfilmentDeliveryModule,
      imports: [storage],
      controllers: [...FULFILMENT_CONTROLLERS, ...DELIVERY_CONTROLLERS] as Type[],
      providers: [...settings, ...(FULFILMENT_PROVIDERS as Provider[]), ...(DELIVERY_PROVIDERS as Provider[])],
      exports: [...(FULFILMENT_PROVIDERS as Provider[]), ...(DELIVERY_PROVIDERS as Provider[])],
    };
  }
}
