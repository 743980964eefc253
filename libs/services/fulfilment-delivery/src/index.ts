import type { ServiceDefinition } from '@dsar/platform/host';
import { FulfilmentDeliveryModule } from './fulfilment-delivery.module';

export { FulfilmentDeliveryModule } from './fulfilment-delivery.module';

/** fulfilment-delivery keeps fulfilment manifests and artifacts and delivers them securely. */
export const fulfilmentDeliveryService: ServiceDefinition = {
  name: 'fulfilment-delivery',
  module: FulfilmentDeliveryModule,
  persistence: true,
};
