import type { ServiceDefinition } from '@dsar/platform/host';
import { Requests1763700000100 } from './infrastructure/migrations/1763700000100-requests';
import { RequestIntake1763700000110 } from './infrastructure/migrations/1763700000110-request-intake';
import { RequestEntity } from './infrastructure/request.entity';
import { LifecycleClockModule } from './lifecycle-clock.module';

export { LifecycleClockModule } from './lifecycle-clock.module';
export { RequestRegistry } from './application/request-registry';
export { RequestEntity } from './infrastructure/request.entity';

/** lifecycle-clock owns the request aggregate, its status changes and its legal clock. */
export const lifecycleClockService: ServiceDefinition = {
  name: 'lifecycle-clock',
  module: LifecycleClockModule,
  persistence: true,
  entities: [RequestEntity],
  migrations: [Requests1763700000100, RequestIntake1763700000110],
};
