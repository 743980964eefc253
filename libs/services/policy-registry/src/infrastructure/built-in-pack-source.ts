import { Injectable } from '@nestjs/common';
import { currentPolicyPacks, type PolicyPack, policyPackVersion } from '@dsar/contracts';
import type { PolicyPackSource } from '../application/policy-pack-source';

/** The packs that ship with the product (libs/contracts/src/policy/packs): the same for every tenant. */
@Injectable()
export class BuiltInPackSource implements PolicyPackSource {
  readonly kind = 'built_in' as const;

  async current(): Promise<readonly PolicyPack[]> {
    return currentPolicyPacks();
  }

  async version(_scope: unknown, packId: string, version: string): Promise<PolicyPack | undefined> {
    return policyPackVersion(packId, version);
  }
}
