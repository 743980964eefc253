import euGdpr from './packs/eu-gdpr.json';
import usCaCcpa from './packs/us-ca-ccpa.json';
import { type JurisdictionBinding, type PolicyPack, policyPackSchema } from './policy-pack';

export * from './policy-pack';

/** The packs that ship with the product, validated when first loaded. */
let builtIn: readonly PolicyPack[] | undefined;
export function builtInPolicyPacks(): readonly PolicyPack[] {
  builtIn ??= [euGdpr, usCaCcpa].map((p) => policyPackSchema.parse(p));
  return builtIn;
}

export interface ResolvedJurisdiction {
  readonly pack: PolicyPack;
  readonly binding: JurisdictionBinding;
}

/** The pack and local calendar of a jurisdiction code, case-insensitively; undefined when no pack covers it. */
export function resolveJurisdiction(code: string): ResolvedJurisdiction | undefined {
  const wanted = code.trim().toUpperCase();
  for (const pack of builtInPolicyPacks()) {
    const binding = pack.jurisdictions.find((j) => j.code === wanted);
    if (binding) return { pack, binding };
  }
  return undefined;
}

/** Every jurisdiction code a built-in pack covers, sorted. */
export function supportedJurisdictions(): string[] {
  return builtInPolicyPacks()
    .flatMap((p) => p.jurisdictions.map((j) => j.code))
    .sort();
}
