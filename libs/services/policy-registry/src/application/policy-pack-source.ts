import type { PolicyPack, PolicyPackSourceKind } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';

/** A pack a scope uses now, and for a custom pack the activation that makes it so. */
export interface ActivePack {
  readonly pack: PolicyPack;
  readonly activatedFor: { readonly jurisdiction: string; readonly workspaceId: string | null } | null;
}

/**
 * Somewhere policy packs come from: the built-in packs that ship with the
 * product, and the custom packs tenants register. The catalog asks the
 * sources in order.
 */
export interface PolicyPackSource {
  readonly kind: PolicyPackSourceKind;
  /** The version of every pack the scope's new requests would use today. */
  current(scope: TenantScope): Promise<readonly ActivePack[]>;
  /** One published version of a pack the scope may read; undefined when there is none. */
  version(scope: TenantScope, packId: string, version: string): Promise<PolicyPack | undefined>;
}

/** Injection token of the sources, in the order the catalog asks them. */
export const POLICY_PACK_SOURCES = Symbol('POLICY_PACK_SOURCES');
