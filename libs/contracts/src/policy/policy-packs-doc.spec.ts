import { markdownTableUnder, unquote } from '../docs/markdown-table';
import { REQUEST_TYPES } from '../http/request-kinds';
import { builtInPolicyPacks, compareVersions } from './jurisdictions';
import { type PeriodRule, type PolicyPack, ruleFor } from './policy-pack';

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

/** A period rule as the triage table writes it: `45 calendar days, receipt day counted, roll none`. */
function periodText(period: PeriodRule): string {
  const days = period.unit === 'months' ? '' : period.countReceiptDay ? ', receipt day counted' : ', from the next day';
  const unit = { calendar_days: 'calendar day', business_days: 'business day', months: 'month' }[period.unit];
  return `${period.amount} ${unit}${period.amount === 1 ? '' : 's'}${days}, roll \`${period.roll}\``;
}

/** The triage table's row of a pack version: the default rule, which a request in triage runs on, and the types whose period differs from it. */
function triageRow(pack: PolicyPack): string[] {
  const period = ruleFor(pack, null).period;
  const differ = REQUEST_TYPES.filter((t) => JSON.stringify(ruleFor(pack, t).period) !== JSON.stringify(period));
  const others = differ.length === 0 ? 'none' : differ.map((t) => `\`${t}\`: ${periodText(ruleFor(pack, t).period)}`).join('; ');
  return [`\`${pack.packId}\``, pack.version, periodText(period), ruleFor(pack, null).basis.replace('_', ' '), others];
}

/**
 * docs/policy-packs/README.md says, per pack version, the rule a request in triage (no type yet) runs on: the
 * pack's `rules.default` (ruleFor(pack, null)), and which types would run on another period once named. The table
 * is checked against the packs here; on a change, the expected table is in the failure message to paste in.
 */
describe('docs/policy-packs/README.md triage table', () => {
  it("is every built-in pack version's default rule, and the types whose period differs", () => {
    const { header, rows } = markdownTableUnder('policy-packs/README.md', '## The clock of a request in triage');
    const expectedHeader = ['Pack', 'Version', 'Period of a request in triage (`rules.default`)', 'Basis', 'Types with another period'];
    const shipped = [...builtInPolicyPacks()].sort((x, y) => x.packId.localeCompare(y.packId) || compareVersions(x.version, y.version)).map(triageRow);
    const table = [expectedHeader, expectedHeader.map(() => '---'), ...shipped].map((r) => `| ${r.join(' | ')} |`).join('\n');
    expect({ header, rows, table }).toEqual({ header: expectedHeader, rows: shipped, table });
  });

  it('names the default rule the clock of a request in triage, and an override only once the type is known', () => {
    const ccpa = builtInPolicyPacks().find((p) => p.packId === 'us-ca-ccpa')!;
    expect(ruleFor(ccpa, null)).toEqual(ccpa.rules.default);
    expect(ruleFor(ccpa, 'opt_out').period).not.toEqual(ruleFor(ccpa, null).period);
    expect(triageRow(ccpa)[4]).toContain('`opt_out`: 15 business days');
  });
});
