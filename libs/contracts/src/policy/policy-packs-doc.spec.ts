import { markdownTableUnder, unquote } from '../docs/markdown-table';
import { currentPolicyPacks } from './jurisdictions';

/**
 * docs/policy-packs/README.md lists the built-in packs under "## Built-in
 * packs"; the table must be the current version of every pack the service
 * ships, in packId order, so pack authors and operators read what runs.
 * Regenerate it with `node tools/scripts/run-ts.cjs tools/scripts/export-policy-schema.ts`.
 */
describe('docs/policy-packs/README.md built-in pack table', () => {
  it('is exactly the current built-in packs: id, name, jurisdictions and version', () => {
    const { header, rows } = markdownTableUnder('policy-packs/README.md', '## Built-in packs');
    expect(header).toEqual(['Pack', 'Name', 'Jurisdictions', 'Version']);
    const documented = rows.map(([packId, name, jurisdictions, version]) => ({ packId: unquote(packId), name, jurisdictions: jurisdictions.split(/,\s*/), version }));
    const shipped = currentPolicyPacks().map((p) => ({ packId: p.packId, name: p.name, jurisdictions: p.jurisdictions.map((j) => j.code), version: p.version }));
    expect(documented).toEqual(shipped);
  });
});
