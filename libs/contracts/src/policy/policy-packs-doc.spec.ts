import { markdownTableUnder, unquote } from '../docs/markdown-table';
import { builtInPolicyPacks, compareVersions } from './jurisdictions';

/**
 * docs/policy-packs/README.md lists the built-in packs under "## Built-in
 * packs"; the table must be every version of every pack the service ships
 * (a request uses the version in effect on the day it was received), by
 * packId and then by version, so pack authors and operators read what runs.
 * Regenerate it with `node tools/scripts/run-ts.cjs tools/scripts/export-policy-schema.ts`.
 */
describe('docs/policy-packs/README.md built-in pack table', () => {
  it('is exactly the built-in pack versions: id, name, jurisdictions, version and effective date', () => {
    const { header, rows } = markdownTableUnder('policy-packs/README.md', '## Built-in packs');
    expect(header).toEqual(['Pack', 'Name', 'Jurisdictions', 'Version', 'Effective from']);
    const documented = rows.map(([packId, name, jurisdictions, version, effectiveFrom]) => ({
      packId: unquote(packId),
      name,
      jurisdictions: jurisdictions.split(/,\s*/),
      version,
      effectiveFrom,
    }));
    const shipped = [...builtInPolicyPacks()]
      .sort((x, y) => x.packId.localeCompare(y.packId) || compareVersions(x.version, y.version))
      .map((p) => ({ packId: p.packId, name: p.name, jurisdictions: p.jurisdictions.map((j) => j.code), version: p.version, effectiveFrom: p.effectiveFrom }));
    expect(documented).toEqual(shipped);
  });
});
