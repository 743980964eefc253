import { Inject, Injectable } from '@nestjs/common';
import type { PolicyListQuery, PolicyPack, PolicyPackSourceKind } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';
import { type ActivePack, POLICY_PACK_SOURCES, type PolicyPackSource } from './policy-pack-source';

/** A pack as the catalog answers it: the document, where it came from and, for a custom pack, its activation. */
export interface CatalogPack extends ActivePack {
  readonly source: PolicyPackSourceKind;
}

/** The policy packs a caller uses, across every source. */
@Injectable()
export class PolicyCatalog {
  constructor(@Inject(POLICY_PACK_SOURCES) private readonly sources: readonly PolicyPackSource[]) {}

  /** What the caller's new requests would use today: the built-in version in force and its custom activations, filtered, sorted by pack id. */
  async list(scope: TenantScope, query: PolicyListQuery = {}): Promise<CatalogPack[]> {
    const all: CatalogPack[] = [];
    for (const source of this.sources) {
      for (const active of await source.current(scope)) all.push({ ...active, source: source.kind });
    }
    return all
      .filter(({ pack }) => query.packId === undefined || pack.packId === query.packId)
      .filter(
        ({ pack, activatedFor }) =>
          query.jurisdiction === undefined || (activatedFor ? activatedFor.jurisdiction === query.jurisdiction : pack.jurisdictions.some((j) => j.code === query.jurisdiction)),
      )
      .sort(
        (a, b) =>
          compare(a.pack.packId, b.pack.packId) ||
          compare(a.activatedFor?.workspaceId ?? '', b.activatedFor?.workspaceId ?? '') ||
          compare(a.activatedFor?.jurisdiction ?? '', b.activatedFor?.jurisdiction ?? ''),
      );
  }

  /** One pack the caller may read: the version its new requests use today, or the given one; undefined when either does not exist. */
  async find(scope: TenantScope, packId: string, version?: string): Promise<{ pack: PolicyPack; source: PolicyPackSourceKind } | undefined> {
    for (const source of this.sources) {
      if (version !== undefined) {
        const pack = await source.version(scope, packId, version);
        if (pack) return { pack, source: source.kind };
        continue;
      }
      const current = (await source.current(scope)).find((a) => a.pack.packId === packId);
      if (current) return { pack: current.pack, source: source.kind };
    }
    return undefined;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
