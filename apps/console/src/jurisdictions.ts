import type { PolicyPackSummary } from '@dsar/contracts';

/** The jurisdiction codes the policy packs cover (`GET /policies`), each once, in alphabetical order. */
export function jurisdictionsOf(packs: readonly Pick<PolicyPackSummary, 'jurisdiction' | 'jurisdictions'>[]): string[] {
  const codes = new Set<string>();
  for (const pack of packs) {
    for (const code of pack.jurisdictions.length > 0 ? pack.jurisdictions : [pack.jurisdiction]) codes.add(code.toUpperCase());
  }
  return [...codes].sort();
}
