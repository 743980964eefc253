import type { PolicyPackSummary } from '@dsar/contracts';
import type { CatalogPack } from '../application/policy-catalog';

/** The list item of a pack (GET /policies). */
export function summaryOf({ pack, source, activatedFor }: CatalogPack): PolicyPackSummary {
  const jurisdictions = pack.jurisdictions.map((j) => j.code);
  return {
    packId: pack.packId,
    name: pack.name,
    jurisdiction: activatedFor?.jurisdiction ?? jurisdictions[0],
    jurisdictions,
    version: pack.version,
    publishedAt: pack.publishedAt,
    effectiveFrom: pack.effectiveFrom,
    source,
    activatedFor,
  };
}
