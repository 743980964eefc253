import { builtInPolicyPacks, currentPolicyPacks, type PeriodRule, type PolicyPack, policyPackVersion, REQUEST_TYPES, ruleFor } from '@dsar/contracts';
import { computeBaseDeadline, computeClock } from '@dsar/platform/deadline';
import { consistencyFindings, type Finding, protectionFindings, releaseStep } from './custom-pack-rules';

const law = (packId: string): PolicyPack => policyPackVersion(packId, '1.0.0')!;

/** A tenant's custom pack: a copy of a built-in pack under its own id, changed by `edit`. */
function customOf(packId: string, edit: (pack: PolicyPack) => void = () => undefined): PolicyPack {
  const pack = structuredClone(law(packId));
  pack.packId = 'acme-custom';
  pack.name = 'Acme custom rules';
  edit(pack);
  return pack;
}

const fields = (findings: Finding[]) => findings.map((f) => f.field);
const calendarDays = (amount: number): PeriodRule => ({ amount, unit: 'calendar_days', countReceiptDay: false, roll: 'none' });
const businessDays = (amount: number): PeriodRule => ({ amount, unit: 'business_days', countReceiptDay: false, roll: 'none' });

describe('consistencyFindings', () => {
  const builtInIds = new Set(builtInPolicyPacks().map((p) => p.packId));
  const acmeUk = () => customOf('uk-gdpr', (p) => (p.packId = 'acme-uk'));

  it('accepts a pack that matches its body and names real calendars; the jurisdiction is compared in capitals', () => {
    expect(consistencyFindings({ jurisdiction: 'gb-wls', name: 'acme-uk', version: '1.0.0' }, acmeUk(), builtInIds)).toEqual([]);
  });

  it('reports a packId, version or jurisdiction that differs from the body', () => {
    expect(consistencyFindings({ jurisdiction: 'DE', name: 'acme-eu', version: '1.1.0' }, acmeUk(), builtInIds)).toEqual([
      { field: 'pack.packId', message: 'The pack\'s packId "acme-uk" differs from the name "acme-eu" it is registered under.' },
      { field: 'pack.version', message: "The pack's version 1.0.0 differs from the version 1.1.0 it is registered as." },
      { field: 'jurisdiction', message: 'The pack does not cover DE; it covers GB, GB-ENG, GB-WLS, GB-SCT, GB-NIR.' },
    ]);
  });

  it('refuses the name of a built-in pack', () => {
    const shadow = customOf('uk-gdpr', (p) => (p.packId = 'uk-gdpr'));
    expect(consistencyFindings({ jurisdiction: 'GB', name: 'uk-gdpr', version: '1.0.0' }, shadow, builtInIds)).toEqual([
      { field: 'name', message: '"uk-gdpr" is the id of a built-in pack; a custom pack needs a name of its own.' },
    ]);
  });

  it('reports time zones and holiday calendars the deadline engine would fail on, by index', () => {
    const pack = acmeUk();
    pack.jurisdictions[1].timeZone = 'Europe/Atlantis';
    pack.jurisdictions[2].holidays = { country: 'XX' };
    pack.jurisdictions[3].holidays = { country: 'GB', state: 'XYZ' };
    pack.jurisdictions[4].holidays = null;
    expect(consistencyFindings({ jurisdiction: 'GB', name: 'acme-uk', version: '1.0.0' }, pack, builtInIds)).toEqual([
      { field: 'pack.jurisdictions[1].timeZone', message: '"Europe/Atlantis" is not an IANA time zone (such as Europe/Berlin).' },
      { field: 'pack.jurisdictions[2].holidays', message: 'date-holidays has no public-holiday calendar XX.' },
      { field: 'pack.jurisdictions[3].holidays', message: 'date-holidays has no public-holiday calendar GB-XYZ.' },
    ]);
  });
});

describe('releaseStep', () => {
  it('accepts any version as the first', () => {
    expect(releaseStep(undefined, '0.0.1', 'patch')).toEqual({ kind: 'ok' });
    expect(releaseStep(undefined, '7.3.2', 'major')).toEqual({ kind: 'ok' });
  });

  it('refuses a version that is not newer, in numeric order', () => {
    expect(releaseStep('1.2.3', '1.2.3', 'patch')).toEqual({ kind: 'not_newer', latest: '1.2.3' });
    expect(releaseStep('1.2.3', '1.2.2', 'patch')).toEqual({ kind: 'not_newer', latest: '1.2.3' });
    expect(releaseStep('1.10.0', '1.9.0', 'minor')).toEqual({ kind: 'not_newer', latest: '1.10.0' });
  });

  it('accepts exactly the step of the release type', () => {
    expect(releaseStep('1.2.3', '2.0.0', 'major')).toEqual({ kind: 'ok' });
    expect(releaseStep('1.2.3', '1.3.0', 'minor')).toEqual({ kind: 'ok' });
    expect(releaseStep('1.2.3', '1.2.4', 'patch')).toEqual({ kind: 'ok' });
    expect(releaseStep('1.9.9', '1.9.10', 'patch')).toEqual({ kind: 'ok' });
  });

  it('names the expected version for any other newer one', () => {
    expect(releaseStep('1.2.3', '2.1.0', 'major')).toEqual({ kind: 'mismatch', expected: '2.0.0' });
    expect(releaseStep('1.2.3', '3.0.0', 'major')).toEqual({ kind: 'mismatch', expected: '2.0.0' });
    expect(releaseStep('1.2.3', '1.3.1', 'minor')).toEqual({ kind: 'mismatch', expected: '1.3.0' });
    expect(releaseStep('1.2.3', '2.0.0', 'minor')).toEqual({ kind: 'mismatch', expected: '1.3.0' });
    expect(releaseStep('1.2.3', '1.2.5', 'patch')).toEqual({ kind: 'mismatch', expected: '1.2.4' });
    expect(releaseStep('1.2.3', '1.3.0', 'patch')).toEqual({ kind: 'mismatch', expected: '1.2.4' });
  });
});

describe('protectionFindings', () => {
  it('finds nothing in a copy of any built-in pack, for any jurisdiction it covers', () => {
    for (const pack of currentPolicyPacks()) {
      const copy = { ...structuredClone(pack), packId: 'acme-copy' };
      for (const { code } of pack.jurisdictions) expect({ code, findings: protectionFindings(copy, pack, code) }).toEqual({ code, findings: [] });
    }
  });

  describe('the response period', () => {
    it('allows a shorter one, also of another kind', () => {
      expect(
        protectionFindings(
          customOf('us-ca-ccpa', (p) => (p.rules.default.period = calendarDays(30))),
          law('us-ca-ccpa'),
          'US-CA',
        ),
      ).toEqual([]);
      expect(
        protectionFindings(
          customOf('uk-gdpr', (p) => (p.rules.default.period = calendarDays(28))),
          law('uk-gdpr'),
          'GB',
        ),
      ).toEqual([]);
    });

    it('reports a longer one with the first receipt it is later for, both due dates and the statutory pack', () => {
      const twoMonths = customOf('uk-gdpr', (p) => (p.rules.default.period = { ...p.rules.default.period, amount: 2 }));
      // 1 January 2026 + 1 month is Sunday 1 February, + 2 months Sunday 1 March; both roll to the Monday.
      expect(protectionFindings(twoMonths, law('uk-gdpr'), 'GB')).toEqual([
        {
          field: 'pack.rules.default.period',
          message: 'access: a request received 2026-01-01 is due 2026-03-02T23:59:59.999+00:00 under this pack, later than 2026-02-02T23:59:59.999+00:00 under uk-gdpr@1.0.0.',
        },
      ]);
      // The extension and the refusal notice, taken over from the law, are later too, but only because of the period.
      expect(
        fields(
          protectionFindings(
            customOf('uk-gdpr', (p) => (p.rules.default.period = calendarDays(45))),
            law('uk-gdpr'),
            'GB',
          ),
        ),
      ).toEqual(['pack.rules.default.period']);
    });

    it('catches a period that is later only on some days: 20 business days outrun a month over Easter', () => {
      const businessMonth = customOf('uk-gdpr', (p) => (p.rules.default.period = businessDays(20)));
      expect(protectionFindings(businessMonth, law('uk-gdpr'), 'GB-ENG')).toEqual([
        {
          field: 'pack.rules.default.period',
          message: 'access: a request received 2026-03-13 is due 2026-04-14T23:59:59.999+01:00 under this pack, later than 2026-04-13T23:59:59.999+01:00 under uk-gdpr@1.0.0.',
        },
      ]);
    });

    it('names the override a longer period comes from, and only the request types it applies to', () => {
      const slowAccess = customOf('uk-gdpr', (p) => (p.rules.overrides.access = { ...p.rules.overrides.access, period: { ...p.rules.default.period, amount: 2 } }));
      const findings = protectionFindings(slowAccess, law('uk-gdpr'), 'GB');
      expect(fields(findings)).toEqual(['pack.rules.overrides.access.period']);
      expect(findings[0].message).toMatch(/^access: /);
    });

    it('counts each pack on its own calendar for the jurisdiction', () => {
      const newYorkDays = customOf('uk-gdpr', (p) => (p.jurisdictions[0].timeZone = 'America/New_York'));
      expect(protectionFindings(newYorkDays, law('uk-gdpr'), 'GB')).toEqual([
        {
          field: 'pack.rules.default.period',
          message: 'access: a request received 2026-01-01 is due 2026-02-02T23:59:59.999-05:00 under this pack, later than 2026-02-02T23:59:59.999+00:00 under uk-gdpr@1.0.0.',
        },
      ]);
      // A binding the engine cannot use is a consistency finding; the comparison falls back to the law's calendar.
      expect(
        protectionFindings(
          customOf('uk-gdpr', (p) => (p.jurisdictions[0].timeZone = 'Europe/Atlantis')),
          law('uk-gdpr'),
          'gb',
        ),
      ).toEqual([]);
    });
  });

  describe('extensions', () => {
    it('reports a larger one by the extended due dates', () => {
      const threeMonths = customOf('uk-gdpr', (p) => (p.rules.default.extension = { ...p.rules.default.extension!, maxTotal: { amount: 3, unit: 'months' } }));
      expect(protectionFindings(threeMonths, law('uk-gdpr'), 'GB')).toEqual([
        {
          field: 'pack.rules.default.extension',
          message:
            "access: with the largest extension (3 months), a request received 2025-12-31 is due 2026-04-30T23:59:59.999+01:00 under this pack, later than 2026-03-31T23:59:59.999+01:00 with uk-gdpr@1.0.0's largest (2 months).",
        },
      ]);
    });

    it('allows a smaller one, or none', () => {
      const smaller = customOf('us-ca-ccpa', (p) => (p.rules.default.extension = { ...p.rules.default.extension!, maxTotal: { amount: 30, unit: 'calendar_days' } }));
      expect(protectionFindings(smaller, law('us-ca-ccpa'), 'US-CA')).toEqual([]);
      expect(
        protectionFindings(
          customOf('us-ca-ccpa', (p) => (p.rules.default.extension = null)),
          law('us-ca-ccpa'),
          'US-CA',
        ),
      ).toEqual([]);
    });

    it('reports one where the law allows none', () => {
      expect(law('ca-qc-law25').rules.default.extension).toBeNull();
      const extended = customOf('ca-qc-law25', (p) => (p.rules.default.extension = structuredClone(law('ca-pipeda').rules.default.extension)));
      expect(protectionFindings(extended, law('ca-qc-law25'), 'CA-QC')).toEqual([
        { field: 'pack.rules.default.extension', message: 'access: ca-qc-law25@1.0.0 allows no extension; this pack allows up to 30 days.' },
      ]);
    });

    it('reports an uncapped one where the law caps it, and more extensions than the law allows', () => {
      const uncapped = customOf('us-ca-ccpa', (p) => (p.rules.default.extension = { ...p.rules.default.extension!, maxTotal: null }));
      expect(protectionFindings(uncapped, law('us-ca-ccpa'), 'US-CA')).toEqual([
        { field: 'pack.rules.default.extension.maxTotal', message: 'access: us-ca-ccpa@1.0.0 caps extensions at 45 days in all; this pack sets no cap.' },
      ]);
      const twice = customOf('us-ca-ccpa', (p) => (p.rules.default.extension = { ...p.rules.default.extension!, maxCount: 2 }));
      expect(protectionFindings(twice, law('us-ca-ccpa'), 'US-CA')).toEqual([
        { field: 'pack.rules.default.extension.maxCount', message: 'access: this pack allows 2 separate extensions; us-ca-ccpa@1.0.0 allows 1.' },
      ]);
    });

    it('lets a custom cap stand where the law sets none', () => {
      expect(law('sg-pdpa').rules.default.extension?.maxTotal).toBeNull();
      const capped = customOf('sg-pdpa', (p) => (p.rules.default.extension = { ...p.rules.default.extension!, maxTotal: { amount: 90, unit: 'calendar_days' } }));
      expect(protectionFindings(capped, law('sg-pdpa'), 'SG')).toEqual([]);
    });
  });

  describe('acknowledgement and refusal notice', () => {
    it('reports a missing or later acknowledgement where the law requires one, and allows an earlier one', () => {
      expect(
        protectionFindings(
          customOf('us-ca-ccpa', (p) => (p.rules.default.acknowledgement = null)),
          law('us-ca-ccpa'),
          'US-CA',
        ),
      ).toEqual([
        {
          field: 'pack.rules.default.acknowledgement',
          message: 'access: us-ca-ccpa@1.0.0 requires the receipt to be acknowledged within 10 business days, the receipt day not counted; this pack sets no acknowledgement.',
        },
      ]);
      expect(
        protectionFindings(
          customOf('us-ca-ccpa', (p) => (p.rules.default.acknowledgement = businessDays(15))),
          law('us-ca-ccpa'),
          'US-CA',
        ),
      ).toEqual([
        {
          field: 'pack.rules.default.acknowledgement',
          message: 'access: a request received 2026-01-01 must be acknowledged by 2026-01-23T23:59:59.999-08:00 under this pack, later than 2026-01-15T23:59:59.999-08:00 under us-ca-ccpa@1.0.0.',
        },
      ]);
      expect(
        protectionFindings(
          customOf('us-ca-ccpa', (p) => (p.rules.default.acknowledgement = calendarDays(7))),
          law('us-ca-ccpa'),
          'US-CA',
        ),
      ).toEqual([]);
    });

    it('reports a later refusal notice', () => {
      const lateRefusal = customOf('us-ca-ccpa', (p) => (p.rules.default.refusalNotice = { ...p.rules.default.refusalNotice!, amount: 60 }));
      expect(protectionFindings(lateRefusal, law('us-ca-ccpa'), 'US-CA')).toEqual([
        {
          field: 'pack.rules.default.refusalNotice',
          message:
            'access: a refusal of a request received 2026-01-01 must be explained by 2026-03-01T23:59:59.999-08:00 under this pack, later than 2026-02-14T23:59:59.999-08:00 under us-ca-ccpa@1.0.0.',
        },
      ]);
    });
  });

  describe('appeals', () => {
    it('reports an appeal the law gives and the pack removes', () => {
      expect(
        protectionFindings(
          customOf('us-va-vcdpa', (p) => (p.appeal = null)),
          law('us-va-vcdpa'),
          'US-VA',
        ),
      ).toEqual([
        { field: 'pack.appeal', message: 'us-va-vcdpa@1.0.0 gives the data subject an appeal to the controller, answered within 60 days, the receipt day not counted; this pack removes it.' },
      ]);
    });

    it('reports a later appeal answer, and an appeal extension the law does not allow or caps lower', () => {
      const slow = customOf('us-va-vcdpa', (p) => (p.appeal = { ...p.appeal!, response: calendarDays(90) }));
      expect(protectionFindings(slow, law('us-va-vcdpa'), 'US-VA')).toEqual([
        {
          field: 'pack.appeal.response',
          message: 'appeal: an appeal received 2026-01-01 must be answered by 2026-04-01T23:59:59.999-04:00 under this pack, later than 2026-03-02T23:59:59.999-05:00 under us-va-vcdpa@1.0.0.',
        },
      ]);
      const extendable = customOf('us-va-vcdpa', (p) => (p.appeal = { ...p.appeal!, extension: structuredClone(law('us-co-cpa').appeal!.extension) }));
      expect(fields(protectionFindings(extendable, law('us-va-vcdpa'), 'US-VA'))).toEqual(['pack.appeal.extension']);
      const longer = customOf('us-co-cpa', (p) => (p.appeal!.extension!.maxTotal = { amount: 90, unit: 'calendar_days' }));
      expect(protectionFindings(longer, law('us-co-cpa'), 'US-CO')).toEqual([
        {
          field: 'pack.appeal.extension',
          message:
            "appeal: with the largest extension (90 days), an appeal received 2025-12-31 is due 2026-05-15T23:59:59.999-06:00 under this pack, later than 2026-04-15T23:59:59.999-06:00 with us-co-cpa@1.0.0's largest (60 days).",
        },
      ]);
    });
  });

  describe('service targets', () => {
    const anythingGoes = (p: PolicyPack) => {
      p.rules.default = {
        ...p.rules.default,
        period: calendarDays(90),
        extension: { ...law('ca-pipeda').rules.default.extension!, maxTotal: null, maxCount: 3 },
        acknowledgement: null,
        refusalNotice: null,
      };
    };

    it('lets a custom pack set any target where the law sets no period', () => {
      expect(protectionFindings(customOf('jp-appi', anythingGoes), law('jp-appi'), 'JP')).toEqual([]);
      expect(protectionFindings(customOf('in-dpdp', anythingGoes), law('in-dpdp'), 'IN')).toEqual([]);
    });

    it('holds only the request types whose period is law to it', () => {
      // LGPD sets 15 days for access only; the other types have the pack's service target.
      const lgpd = law('br-lgpd');
      expect(REQUEST_TYPES.filter((t) => ruleFor(lgpd, t).basis === 'statute')).toEqual(['access']);
      const findings = protectionFindings(customOf('br-lgpd', anythingGoes), lgpd, 'BR');
      expect(fields(findings)).toEqual(['pack.rules.default.period', 'pack.rules.default.extension', 'pack.rules.default.refusalNotice']);
      expect(findings.every((f) => f.message.startsWith('access: '))).toBe(true);
      const slowDeletion = customOf('br-lgpd', (p) => (p.rules.overrides.deletion = { period: calendarDays(60) }));
      expect(protectionFindings(slowDeletion, lgpd, 'BR')).toEqual([]);
    });
  });

  it('refuses to compare against a pack that does not cover the jurisdiction', () => {
    expect(() => protectionFindings(customOf('uk-gdpr'), law('uk-gdpr'), 'DE')).toThrow(RangeError);
  });

  it('compares what the clock computes: without events each deadline is the base deadline of its period', () => {
    for (const packId of ['uk-gdpr', 'us-ca-ccpa', 'za-popia']) {
      const pack = law(packId);
      const binding = pack.jurisdictions[0];
      for (const requestType of REQUEST_TYPES) {
        const rule = ruleFor(pack, requestType);
        for (const receivedAt of [new Date('2026-01-30T12:00:00Z'), new Date('2026-12-23T12:00:00Z')]) {
          const clock = computeClock({ pack, binding, requestType, clockMode: 'receipt', receivedAt, events: [] });
          expect(clock.finalDueAt).toEqual(computeBaseDeadline(rule.period, binding, receivedAt).dueAt);
          expect(clock.refusalNoticeDueAt).toEqual(computeBaseDeadline(rule.refusalNotice ?? rule.period, binding, receivedAt).dueAt);
          expect(clock.acknowledgementDueAt).toEqual(rule.acknowledgement ? computeBaseDeadline(rule.acknowledgement, binding, receivedAt).dueAt : null);
        }
      }
    }
  });

  it('reports each changed rule of a pack with business-day and calendar-day periods', () => {
    const changed = customOf('us-ca-ccpa', (p) => {
      p.rules.default.period = businessDays(30);
      p.rules.overrides.opt_out = { ...p.rules.overrides.opt_out, period: calendarDays(20) };
    });
    protectionFindings(
      customOf('us-ca-ccpa', (p) => (p.rules.default.period = businessDays(29))),
      law('us-ca-ccpa'),
      'US-CA',
    );
    expect(fields(protectionFindings(changed, law('us-ca-ccpa'), 'US-CA'))).toEqual(['pack.rules.default.period', 'pack.rules.overrides.opt_out.period']);
  });

  it('refuses a pause rule that holds the clock longer than the law, and a clock mode the law does not allow', () => {
    const restarts = customOf('us-ca-ccpa', (p) => (p.rules.default.pauses = { ...p.rules.default.pauses, verification: 'restart' }));
    expect(fields(protectionFindings(restarts, law('us-ca-ccpa'), 'US-CA'))).toEqual(['pack.rules.default.pauses.verification']);
    const active = customOf('us-ca-ccpa', (p) => (p.clockModes = { default: 'receipt', allowed: ['receipt', 'active'] }));
    expect(fields(protectionFindings(active, law('us-ca-ccpa'), 'US-CA'))).toEqual(['pack.clockModes.allowed']);
    const ignores = customOf('uk-gdpr', (p) => (p.rules.overrides = {}));
    expect(fields(protectionFindings(ignores, law('uk-gdpr'), 'GB'))).toEqual([]);
  });
});
