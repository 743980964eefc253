import type { ServiceDefinition } from '@dsar/platform/host';
import { VerificationModule } from './verification.module';

export { VerificationModule } from './verification.module';

/** verification runs identity and authority verification cases. */
export const verificationService: ServiceDefinition = {
  name: 'verification',
  module: VerificationModule,
  persistence: true,
};
