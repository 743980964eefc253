import { BUILT_IN_PACK_DOCUMENTS } from './packs';
import { type JurisdictionBinding, type PolicyPack, policyPackSchema } from './policy-pack';

export * from './policy-pack';

/** The packs that ship with the product (every published version), validated when first loaded. */
let builtIn: readonly PolicyPack[] | undefined;
export function builtInPolicyPacks(): readonly PolicyPack[] {
  if (!builtIn) {
    const packs = BUILT_IN_PACK_DOCUMENTS.map((document) => policyPackSchema.parse(document));
    const seen = new Set<string>();
    for (const pack of packs) {
      const key = `${pack.packId}@${pack.version}`;
      if (seen.has(key)) throw new Error(`built-in policy pack ${key} is listed twice`);
      seen.add(key);
    }
    builtIn = packs;
  }
  return builtIn;
}

/** The newest version of each built-in pack: what new requests pin. Computed once; every intake resolves through it. */
let current: readonly PolicyPack[] | undefined;
export function currentPolicyPacks(): readonly PolicyPack[] {
  if (!current) {
    const newest = new Map<string, PolicyPack>();
    for (const pack of builtInPolicyPacks()) {
      const held = newest.get(pack.packId);
      if (!held || compareVersions(pack.version, held.version) > 0) newest.set(pack.packId, pack);
    }
    current = [...newest.values()].sort((x, y) => x.packId.localeCompare(y.packId));
  }
  return current;
}

/** A built-in pack at the exact version a request pinned; undefined when no such version shipped. */
export function policyPackVersion(packId: string, version: string): PolicyPack | undefined {
  return builtInPolicyPacks().find((p) => p.packId === packId && p.version === version);
}

export interface ResolvedJurisdiction {
  readonly pack: PolicyPack;
  readonly binding: JurisdictionBinding;
}

/** The current pack and local calendar of a jurisdiction code, case-insensitively; undefined when no pack covers it. */
export function resolveJurisdiction(code: string): ResolvedJurisdiction | undefined {
  const wanted = code.trim().toUpperCase();
  for (const pack of currentPolicyPacks()) {
    const binding = pack.jurisdictions.find((j) => j.code === wanted);
    if (binding) return { pack, binding };
  }
  return undefined;
}

/** The binding of a jurisdiction inside a given pack version (for requests that pinned it). */
export function bindingIn(pack: PolicyPack, code: string): JurisdictionBinding | undefined {
  return pack.jurisdictions.find((j) => j.code === code);
}

/** Every jurisdiction code a current built-in pack covers, sorted. */
export function supportedJurisdictions(): string[] {
  return currentPolicyPacks()
    .flatMap((p) => p.jurisdictions.map((j) => j.code))
    .sort();
}

/** Orders MAJOR.MINOR.PATCH versions numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
