import { Inject, Injectable } from '@nestjs/common';
import type { PolicyListQuery, PolicyPack, PolicyPackSourceKind } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { POLICY_PACK_SOURCES, type PolicyPackSource } from './policy-pack-source';

/** A pack as the catalog answers it: the document and where it came from. */
export interface CatalogPack {
  readonly pack: PolicyPack;
  readonly source: PolicyPackSourceKind;
}

/** The policy packs a caller may use, across every source. */
@Injectable()
export class PolicyCatalog {
  constructor(@Inject(POLICY_PACK_SOURCES) private readonly sources: readonly PolicyPackSource[]) {}

  /** The current version of every visible pack, filtered, sorted by pack id. */
  async list(scope: TenantScope, query: PolicyListQuery = {}): Promise<CatalogPack[]> {
    const byId = new Map<string, CatalogPack>();
    for (const source of this.sources) {
      for (const pack of await source.current(scope)) {
        if (!byId.has(pack.packId)) byId.set(pack.packId, { pack, source: source.kind });
      }
    }
    return [...byId.values()]
      .filter(({ pack }) => query.packId === undefined || pack.packId === query.packId)
      .filter(({ pack }) => query.jurisdiction === undefined || pack.jurisdictions.some((j) => j.code === query.jurisdiction))
      .sort((a, b) => (a.pack.packId < b.pack.packId ? -1 : a.pack.packId > b.pack.packId ? 1 : 0));
  }

  /** One visible pack: its current version, or the given one; undefined when either does not exist. */
  async find(scope: TenantScope, packId: string, version?: string): Promise<CatalogPack | undefined> {
    for (const source of this.sources) {
      const current = (await source.current(scope)).find((p) => p.packId === packId);
      if (!current) continue;
      const pack = version === undefined || version === current.version ? current : await source.version(scope, packId, version);
      return pack ? { pack, source: source.kind } : undefined;
    }
    return undefined;
  }
}
