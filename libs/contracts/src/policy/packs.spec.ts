import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Holidays from 'date-holidays';
import { IANAZone } from 'luxon';
import { REQUEST_TYPES } from '../http/requests';
import { builtInPolicyPacks, compareVersions, currentPolicyPacks, policyPackVersion, resolveJurisdiction, ruleFor, supportedJurisdictions } from './jurisdictions';
import { BUILT_IN_PACK_CHANGELOG, BUILT_IN_PACK_DOCUMENTS, builtInChangelog } from './packs';
import { policyPackSchema } from './policy-pack';

const EU_MEMBER_STATES = ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE'];
const OTHER_JURISDICTIONS = ['EU', 'GB', 'US-CA', 'US-VA', 'US-CO', 'US-CT', 'US-UT', 'US-TX', 'US-OR', 'BR', 'CA', 'CA-QC', 'AU', 'SG', 'ZA', 'CH', 'JP', 'IN'];

describe('built-in policy packs', () => {
  it('every document listed parses against the schema', () => {
    for (const document of BUILT_IN_PACK_DOCUMENTS) {
      const parsed = policyPackSchema.safeParse(document);
      const id = (document as { packId?: string }).packId;
      expect({ id, issues: parsed.success ? [] : parsed.error.issues }).toEqual({ id, issues: [] });
    }
    expect(builtInPolicyPacks()).toHaveLength(BUILT_IN_PACK_DOCUMENTS.length);
  });

  it('every JSON file in packs/ is listed, named after its packId (and, after the first version, its version)', () => {
    const files = readdirSync(join(__dirname, 'packs'))
      .filter((f) => f.endsWith('.json'))
      .sort();
    const first = new Map<string, string>();
    for (const p of builtInPolicyPacks()) {
      const held = first.get(p.packId);
      if (held === undefined || compareVersions(p.version, held) < 0) first.set(p.packId, p.version);
    }
    const expected = builtInPolicyPacks().map((p) => (first.get(p.packId) === p.version ? `${p.packId}.json` : `${p.packId}-${p.version}.json`));
    expect(expected.sort()).toEqual(files);
  });

  it('jurisdiction codes are unique across the current packs', () => {
    const codes = currentPolicyPacks().flatMap((p) => p.jurisdictions.map((j) => j.code));
    const repeated = codes.filter((code, i) => codes.indexOf(code) !== i);
    expect(repeated).toEqual([]);
  });

  it('a jurisdiction code belongs to one pack across every version (versions of the same pack share codes)', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const pack of builtInPolicyPacks()) {
      for (const { code } of pack.jurisdictions) {
        const held = owner.get(code);
        if (held !== undefined && held !== pack.packId) clashes.push(`${code}: ${held} and ${pack.packId}`);
        owner.set(code, pack.packId);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('records a changelog entry for every built-in version, and for nothing else', () => {
    expect(Object.keys(BUILT_IN_PACK_CHANGELOG).sort()).toEqual(
      builtInPolicyPacks()
        .map((p) => `${p.packId}@${p.version}`)
        .sort(),
    );
    for (const [key, entry] of Object.entries(BUILT_IN_PACK_CHANGELOG)) expect({ key, entry: entry.trim().length > 0 }).toEqual({ key, entry: true });
    expect(builtInChangelog('eu-gdpr', '1.0.0')).toBe('First release.');
    expect(builtInChangelog('uk-gdpr', '1.1.0')).toMatch(/before 5 February 2026/);
    expect(builtInChangelog('uk-gdpr', '9.9.9')).toBe('No changelog recorded.');
    expect(builtInChangelog('toString', '')).toBe('No changelog recorded.');
  });

  it('supports all 27 EU member states and every other jurisdiction of the issue', () => {
    expect(EU_MEMBER_STATES).toHaveLength(27);
    const supported = supportedJurisdictions();
    for (const code of [...EU_MEMBER_STATES, ...OTHER_JURISDICTIONS]) expect({ code, supported: supported.includes(code) }).toEqual({ code, supported: true });
    // The UK nations have their own calendars.
    expect(supported).toEqual(expect.arrayContaining(['GB-ENG', 'GB-WLS', 'GB-SCT', 'GB-NIR']));
  });

  it('every EU member state resolves to the GDPR pack', () => {
    for (const code of EU_MEMBER_STATES) expect(resolveJurisdiction(code)?.pack.packId).toBe('eu-gdpr');
  });

  describe.each(builtInPolicyPacks().map((pack) => [`${pack.packId}@${pack.version}`, pack] as const))('%s', (_id, pack) => {
    it('counts on valid IANA time zones', () => {
      for (const j of pack.jurisdictions) expect({ code: j.code, valid: IANAZone.isValidZone(j.timeZone) }).toEqual({ code: j.code, valid: true });
    });

    it('names holiday calendars that date-holidays has', () => {
      const catalogue = new Holidays();
      for (const { code, holidays } of pack.jurisdictions) {
        if (!holidays) continue;
        expect({ code, country: holidays.country in catalogue.getCountries() }).toEqual({ code, country: true });
        if (holidays.state) expect({ code, state: holidays.state in (catalogue.getStates(holidays.country) ?? {}) }).toEqual({ code, state: true });
        // A calendar with no public holiday at all would roll nothing.
        const calendar = holidays.state ? new Holidays(holidays.country, holidays.state) : new Holidays(holidays.country);
        expect(calendar.getHolidays(2026).some((h) => h.type === 'public')).toBe(true);
      }
    });

    it('cites its law and records its interpretations', () => {
      expect(pack.citations.length).toBeGreaterThan(0);
      expect(pack.notes.length).toBeGreaterThan(0);
      for (const note of pack.notes) expect(note.trim().length).toBeGreaterThan(20);
    });

    it('says in its notes where a period is a service target rather than a legal deadline', () => {
      const serviceTarget = REQUEST_TYPES.some((t) => ruleFor(pack, t).basis === 'service_target');
      if (serviceTarget) expect(pack.notes.some((n) => /service target/i.test(n))).toBe(true);
    });

    it('starts before it was published and allows its default clock mode', () => {
      expect(pack.effectiveFrom <= pack.publishedAt.slice(0, 10)).toBe(true);
      expect(pack.clockModes.allowed).toContain(pack.clockModes.default);
    });
  });

  it('lets only the UK start the clock at the relevant time (clock mode active)', () => {
    const withActive = currentPolicyPacks()
      .filter((p) => p.clockModes.allowed.includes('active'))
      .map((p) => p.packId);
    expect(withActive).toEqual(['uk-gdpr']);
  });

  it('marks the periods of laws without a day count as service targets', () => {
    const defaultBasis = Object.fromEntries(currentPolicyPacks().map((p) => [p.packId, p.rules.default.basis]));
    expect(
      Object.entries(defaultBasis)
        .filter(([, basis]) => basis === 'service_target')
        .map(([id]) => id)
        .sort(),
    ).toEqual(['au-app', 'br-lgpd', 'in-dpdp', 'jp-appi']);
  });

  describe('uk-gdpr: 1.1.0 (before the Data (Use and Access) Act 2025) and 1.0.0 (after it)', () => {
    const before = policyPackVersion('uk-gdpr', '1.1.0');
    const after = policyPackVersion('uk-gdpr', '1.0.0');

    it('ships both versions', () => {
      expect(before).toBeDefined();
      expect(after).toBeDefined();
    });

    it('covers the same jurisdictions on the same calendars, with the same clock modes', () => {
      expect(before?.jurisdictions).toEqual(after?.jurisdictions);
      expect(before?.clockModes).toEqual(after?.clockModes);
    });

    it('1.1.0 takes effect when the UK GDPR did, 1.0.0 on the commencement of DUAA s76 (5 February 2026)', () => {
      expect(before?.effectiveFrom).toBe('2021-01-01');
      expect(after?.effectiveFrom).toBe('2026-02-05');
      // Released after 1.0.0: a MINOR release that adds the earlier rules without moving later requests' deadlines.
      expect(before!.publishedAt > after!.publishedAt).toBe(true);
    });

    it('1.1.0 has no stop-the-clock for clarification of any request type; identity and fee restart the month', () => {
      for (const t of REQUEST_TYPES) expect({ t, pauses: ruleFor(before!, t).pauses }).toEqual({ t, pauses: { verification: 'restart', clarification: 'ignore', fee: 'restart' } });
      expect(before!.rules.overrides).toEqual({});
    });

    it('1.1.0 counts the month, the extension, the refusal notice and the acknowledgement as 1.0.0 does', () => {
      const { pauses: _pausesBefore, ...restBefore } = before!.rules.default;
      const { pauses: _pausesAfter, ...restAfter } = after!.rules.default;
      expect(restBefore).toEqual(restAfter);
      expect(before!.appeal).toBeNull();
    });

    it('1.1.0 says which version requests from 5 February 2026 use, and the reading it did not take for clarification', () => {
      expect(before!.notes.some((n) => /5 February 2026/.test(n) && /1\.0\.0/.test(n) && /SI 2026\/82 reg 4/.test(n))).toBe(true);
      expect(before!.notes.some((n) => /clarification/i.test(n) && /October 2020/.test(n))).toBe(true);
    });
  });
});
