import { Injectable } from '@nestjs/common';
import type { PolicyPack } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { CustomPacks } from './custom-packs';
import { PackSets } from './pack-sets';
import type { ActivePack, PolicyPackSource } from './policy-pack-source';

/**
 * The custom packs of the caller's tenant: those active for its scope (a
 * workspace's activation wins over the tenant's in the same jurisdiction), and
 * every registered version by name.
 */
@Injectable()
export class CustomPackSource implements PolicyPackSource {
  readonly kind = 'custom' as const;

  constructor(
    private readonly packSets: PackSets,
    private readonly customPacks: CustomPacks,
  ) {}

  async current(scope: TenantScope): Promise<readonly ActivePack[]> {
    const set = await this.packSets.read(scope.tenantId);
    const relevant = set.activations.filter((a) => a.workspaceId === null || a.workspaceId === scope.workspaceId);
    const winning = relevant.filter((a) => a.workspaceId !== null || !relevant.some((w) => w.workspaceId !== null && w.jurisdiction === a.jurisdiction));
    if (winning.length === 0) return [];
    const registered = await this.customPacks.versions(scope.tenantId);
    return winning.flatMap((a) => {
      const record = registered.find((r) => r.name === a.name && r.jurisdiction === a.jurisdiction && r.version === a.version);
      return record ? [{ pack: record.pack, activatedFor: { jurisdiction: a.jurisdiction, workspaceId: a.workspaceId } }] : [];
    });
  }

  async version(scope: TenantScope, packId: string, version: string): Promise<PolicyPack | undefined> {
    return (await this.customPacks.versions(scope.tenantId)).find((r) => r.name === packId && r.version === version)?.pack;
  }
}
