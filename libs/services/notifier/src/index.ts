import type { ServiceDefinition } from '@dsar/platform/host';
import { NotifierModule } from './notifier.module';

export { NotifierModule } from './notifier.module';

/** notifier turns domain events into email and chat notifications and keeps their history. */
export const notifierService: ServiceDefinition = {
  name: 'notifier',
  module: NotifierModule,
  persistence: true,
};
