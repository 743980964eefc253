import { BUILT_IN_PACK_DOCUMENTS } from './packs';
import { type JurisdictionBinding, type PolicyPack, policyPackSchema } from './policy-pack';

export * from './policy-pack';
export { BUILT_IN_PACK_CHANGELOG, builtInChangelog } from './packs';

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

/**
 * The current version of each built-in pack: the newest text of the law (the
 * latest `effectiveFrom`, then the highest version). It names each pack's
 * jurisdictions and calendars; which version a request pins is
 * `versionInForce` on its day of receipt.
 */
let current: readonly PolicyPack[] | undefined;
export function currentPolicyPacks(): readonly PolicyPack[] {
  if (!current) current = newestBy((pack, held) => pack.effectiveFrom > held.effectiveFrom || (pack.effectiveFrom === held.effectiveFrom && compareVersions(pack.version, held.version) > 0));
  return current;
}

/** The newest release of each built-in pack (the highest version): what a tenant's pack set is upgraded to. */
let releases: readonly PolicyPack[] | undefined;
export function newestReleases(): readonly PolicyPack[] {
  if (!releases) releases = newestBy((pack, held) => compareVersions(pack.version, held.version) > 0);
  return releases;
}

function newestBy(newer: (pack: PolicyPack, held: PolicyPack) => boolean): readonly PolicyPack[] {
  const newest = new Map<string, PolicyPack>();
  for (const pack of builtInPolicyPacks()) {
    const held = newest.get(pack.packId);
    if (!held || newer(pack, held)) newest.set(pack.packId, pack);
  }
  return [...newest.values()].sort((x, y) => x.packId.localeCompare(y.packId));
}

/** A built-in pack at the exact version a request pinned; undefined when no such version shipped. */
export function policyPackVersion(packId: string, version: string): PolicyPack | undefined {
  return builtInPolicyPacks().find((p) => p.packId === packId && p.version === version);
}

/** Every built-in version of one pack, oldest release first. */
export function builtInVersionsOf(packId: string): PolicyPack[] {
  return builtInPolicyPacks()
    .filter((p) => p.packId === packId)
    .sort((a, b) => compareVersions(a.version, b.version));
}

/** Which version of a pack applies on a day, and why. */
export interface VersionInForce {
  readonly pack: PolicyPack;
  /** `in_force`: its effectiveFrom is the latest on or before the day; `earliest`: the day is before every version took effect. */
  readonly basis: 'in_force' | 'earliest';
}

/**
 * The version of a pack in force on a local date: the law's text that applied
 * that day is the version whose `effectiveFrom` is the latest on or before it;
 * between releases of the same text (same `effectiveFrom`), the newest. A
 * ceiling (the release a tenant upgraded to) leaves out every later release.
 * Undefined only when no version is at or under the ceiling.
 */
export function versionInForce(versions: readonly PolicyPack[], localDate: string, ceiling?: string): VersionInForce | undefined {
  const allowed = ceiling === undefined ? versions : versions.filter((p) => compareVersions(p.version, ceiling) <= 0);
  const later = (a: PolicyPack, b: PolicyPack) => (a.effectiveFrom !== b.effectiveFrom ? a.effectiveFrom > b.effectiveFrom : compareVersions(a.version, b.version) > 0);
  let best: PolicyPack | undefined;
  for (const pack of allowed) {
    if (pack.effectiveFrom <= localDate && (!best || later(pack, best))) best = pack;
  }
  if (best) return { pack: best, basis: 'in_force' };
  let earliest: PolicyPack | undefined;
  for (const pack of allowed) {
    if (!earliest || later(earliest, pack)) earliest = pack;
  }
  return earliest ? { pack: earliest, basis: 'earliest' } : undefined;
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
