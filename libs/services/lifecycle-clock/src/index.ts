import type { ServiceDefinition } from '@dsar/platform/host';
import { Requests1763700000100 } from './infrastructure/migrations/1763700000100-requests';
import { RequestIntake1763700000110 } from './infrastructure/migrations/1763700000110-request-intake';
import { RequestClock1763700000120 } from './infrastructure/migrations/1763700000120-request-clock';
import { ClockEventEntity } from './infrastructure/clock-event.entity';
import { RequestEntity } from './infrastructure/request.entity';
import { LifecycleClockModule } from './lifecycle-clock.module';

export { LifecycleClockModule } from './lifecycle-clock.module';
export { RequestRegistry } from './application/request-registry';
export { RequestClock } from './application/request-clock';
export { RequestEntity } from './infrastructure/request.entity';

/** lifecycle-clock owns the request aggregate, its status changes and its legal clock. */
export const lifecycleClockService: ServiceDefinition = {
  name: 'lifecycle-clock',
  module: LifecycleClockModule,
  persistence: true,
  entities: [RequestEntity, ClockEventEntity],
  migrations: [Requests1763700000100, RequestIntake1763700000110, RequestClock1763700000120],
};
