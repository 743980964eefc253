import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { LifecycleClient, RetentionPreviewClient } from '@dsar/platform/http';
import { CustomPacksController, UpgradesController } from './api/policy-admin.controller';
import { PoliciesController } from './api/policies.controller';
import { RetentionController } from './api/retention.controller';
import { CustomPacks } from './application/custom-packs';
import { PackSets } from './application/pack-sets';
import { PolicyCatalog } from './application/policy-catalog';
import { POLICY_PACK_SOURCES, type PolicyPackSource } from './application/policy-pack-source';
import { RetentionPolicies } from './application/retention-policies';
import { RetentionReports } from './application/retention-report';
import { UpgradeProposals } from './application/upgrade-proposals';
import { BuiltInPackSource } from './application/built-in-pack-source';
import { CustomPackSource } from './application/custom-pack-source';

/**
 * The policy-registry service module: the policy packs with the tenants' pack
 * sets, custom packs and upgrade proposals, and the tenants' retention
 * policies with the purge report. The upgrade and custom-pack controllers come
 * before the pack controller, so `/policies/upgrades` is never read as a pack id.
 */
@Module({})
export class PolicyRegistryModule {
  static with(settings: Provider[]): DynamicModule {
    return {
      module: PolicyRegistryModule,
      controllers: [UpgradesController, CustomPacksController, PoliciesController, RetentionController],
      providers: [
        ...settings,
        PackSets,
        CustomPacks,
        UpgradeProposals,
        BuiltInPackSource,
        CustomPackSource,
        {
          provide: POLICY_PACK_SOURCES,
          useFactory: (builtIn: BuiltInPackSource, custom: CustomPackSource): PolicyPackSource[] => [builtIn, custom],
          inject: [BuiltInPackSource, CustomPackSource],
        },
        PolicyCatalog,
        RetentionPolicies,
        RetentionReports,
        LifecycleClient,
        RetentionPreviewClient,
      ],
    };
  }
}
