import type { ServiceDefinition } from '@dsar/platform/host';
import { PolicyRegistryModule } from './policy-registry.module';

export { PolicyRegistryModule } from './policy-registry.module';

/** policy-registry holds the jurisdiction policy packs, custom packs and retention policies. */
export const policyRegistryService: ServiceDefinition = {
  name: 'policy-registry',
  module: PolicyRegistryModule,
  persistence: true,
};
