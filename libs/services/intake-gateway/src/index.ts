import type { ServiceDefinition } from '@dsar/platform/host';
import { IntakeGatewayModule } from './intake-gateway.module';

export { IntakeGatewayModule } from './intake-gateway.module';

/** intake-gateway receives requests from every channel (API, email, chat) and hands them to lifecycle-clock. */
export const intakeGatewayService: ServiceDefinition = {
  name: 'intake-gateway',
  module: IntakeGatewayModule,
  persistence: true,
  calls: ['lifecycle-clock'],
};
