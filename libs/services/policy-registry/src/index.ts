import type { ServiceName } from '@dsar/platform/config';
import type { ServiceDefinition } from '@dsar/platform/host';
import { RETENTION_OWNERS } from './application/retention-report';
import { RetentionPolicies1763700000600 } from './infrastructure/migrations/1763700000600-retention-policies';
import { RetentionPolicyEntity } from './infrastructure/retention-policy.entity';
import { PolicyRegistryModule } from './policy-registry.module';

export { PolicyRegistryModule } from './policy-registry.module';
export { RETENTION_OWNERS } from './application/retention-report';

/**
 * policy-registry holds the jurisdiction policy packs and the tenants' retention policies; its purge report
 * asks the services that own the retention classes.
 */
export const policyRegistryService: ServiceDefinition = {
  name: 'policy-registry',
  module: PolicyRegistryModule,
  persistence: true,
  entities: [RetentionPolicyEntity],
  migrations: [RetentionPolicies1763700000600],
  calls: RETENTION_OWNERS as ServiceName[],
};
