import type { Provider } from '@nestjs/common';
import type { ServiceName } from '@dsar/platform/config';
import type { ServiceDefinition } from '@dsar/platform/host';
import { RETENTION_OWNERS } from './application/retention-report';
import { PolicyAdministration1763700000610 } from './infrastructure/migrations/1763700000610-policy-administration';
import { CustomPackApproval1763700000620 } from './infrastructure/migrations/1763700000620-custom-pack-approval';
import { RetentionPolicies1763700000600 } from './infrastructure/migrations/1763700000600-retention-policies';
import { RetentionPolicyEntity } from './infrastructure/retention-policy.entity';
import { policyAdminSettingsProvider } from './policy-admin-settings';
import { PolicyRegistryModule } from './policy-registry.module';

export { PolicyRegistryModule } from './policy-registry.module';
export { RETENTION_OWNERS } from './application/retention-report';
export { type PolicyAdminConfig, policyAdminFields, policyAdminSettingsFrom, policyAdminSettingsProvider } from './policy-admin-settings';

/** The services policy-registry asks: the owners of the retention classes (its purge report), lifecycle-clock among them (open requests per pack version). */
export const POLICY_REGISTRY_CALLS = [...new Set([...RETENTION_OWNERS, 'lifecycle-clock'])] as ServiceName[];

/**
 * policy-registry holds the jurisdiction policy packs, the tenants' pack sets, custom packs and upgrade
 * proposals, and the tenants' retention policies; its purge report asks the services that own the retention
 * classes.
 */
export function policyRegistryServiceWith(settings: Provider): ServiceDefinition {
  return {
    name: 'policy-registry',
    module: PolicyRegistryModule.with([settings]),
    persistence: true,
    entities: [RetentionPolicyEntity],
    migrations: [RetentionPolicies1763700000600, PolicyAdministration1763700000610, CustomPackApproval1763700000620],
    calls: POLICY_REGISTRY_CALLS,
  };
}

/** policy-registry with the default settings (four eyes on every tenant's upgrades and custom pack activations). */
export const policyRegistryService: ServiceDefinition = policyRegistryServiceWith(policyAdminSettingsProvider({}));
