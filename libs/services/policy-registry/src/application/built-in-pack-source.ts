import { Injectable } from '@nestjs/common';
import { builtInVersionsOf, currentPolicyPacks, type PolicyPack, policyPackVersion, versionInForce } from '@dsar/contracts';
import { Clock } from '@dsar/platform/clock';
import type { TenantScope } from '@dsar/platform/http';
import { builtInReleaseOf, PackSets } from './pack-sets';
import type { ActivePack, PolicyPackSource } from './policy-pack-source';

/** The packs that ship with the product (libs/contracts/src/policy/packs), each at the version in force today under the tenant's pins. */
@Injectable()
export class BuiltInPackSource implements PolicyPackSource {
  readonly kind = 'built_in' as const;

  constructor(
    private readonly packSets: PackSets,
    private readonly clock: Clock,
  ) {}

  async current(scope: TenantScope): Promise<readonly ActivePack[]> {
    const set = await this.packSets.read(scope.tenantId);
    const today = this.clock.now().toISOString().slice(0, 10);
    return currentPolicyPacks().map((newest) => {
      const inForce = versionInForce(builtInVersionsOf(newest.packId), today, builtInReleaseOf(set, newest.packId));
      return { pack: inForce?.pack ?? newest, activatedFor: null };
    });
  }

  async version(_scope: TenantScope, packId: string, version: string): Promise<PolicyPack | undefined> {
    return policyPackVersion(packId, version);
  }
}
