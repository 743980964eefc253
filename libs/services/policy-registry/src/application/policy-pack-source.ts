import type { PolicyPack, PolicyPackSourceKind } from '@dsar/contracts';
import type { TenantScope } from '@dsar/platform/http';

/**
 * Somewhere policy packs come from. Built-in packs ship with the product and
 * every caller sees them; custom packs (registered by a tenant, a later
 * feature) will be a second source that answers per scope. The catalog asks
 * the sources in order, and the first one that has a pack id owns it.
 */
export interface PolicyPackSource {
  readonly kind: PolicyPackSourceKind;
  /** The newest version of every pack the scope may use. */
  current(scope: TenantScope): Promise<readonly PolicyPack[]>;
  /** One published version of a pack the scope may use; undefined when there is none. */
  version(scope: TenantScope, packId: string, version: string): Promise<PolicyPack | undefined>;
}

/** Injection token of the sources, in the order the catalog asks them. */
export const POLICY_PACK_SOURCES = Symbol('POLICY_PACK_SOURCES');
