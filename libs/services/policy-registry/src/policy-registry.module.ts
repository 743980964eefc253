import { Module } from '@nestjs/common';
import { PoliciesController } from './api/policies.controller';
import { RetentionController } from './api/retention.controller';
import { PolicyCatalog } from './application/policy-catalog';
import { POLICY_PACK_SOURCES, type PolicyPackSource } from './application/policy-pack-source';
import { RetentionPolicies } from './application/retention-policies';
import { RetentionReports } from './application/retention-report';
import { BuiltInPackSource } from './infrastructure/built-in-pack-source';

/**
 * The policy-registry service module: the policy packs, and the tenants'
 * retention policies with the purge report. Pack sources are asked in order:
 * the built-in packs first; a custom-pack source joins the list when tenants
 * can register packs.
 */
@Module({
  controllers: [PoliciesController, RetentionController],
  providers: [
    BuiltInPackSource,
    {
      provide: POLICY_PACK_SOURCES,
      useFactory: (builtIn: BuiltInPackSource): PolicyPackSource[] => [builtIn],
      inject: [BuiltInPackSource],
    },
    PolicyCatalog,
    RetentionPolicies,
    RetentionReports,
  ],
})
export class PolicyRegistryModule {}
