import { resolveLocale } from './resolve-locale';

describe('resolveLocale', () => {
  it.each([
    ['de-AT', null, 'de'],
    ['DE', null, 'de'],
    ['pt_BR', null, 'pt'],
    ['fr-CA,fr;q=0.9,en;q=0.8', null, 'fr'],
    ['it-IT,es;q=0.5', null, 'es'],
    ['en', 'DE', 'en'],
    ['it', 'ES', 'es'],
    ['it-CH', 'CH', 'de'],
  ])('takes a supported requested language first: %s (%s) → %s', (requested, jurisdiction, expected) => {
    expect(resolveLocale(requested, jurisdiction)).toBe(expected);
  });

  it.each([
    ['AT', 'de'],
    ['LI', 'de'],
    ['DE-BY', 'de'],
    ['BE', 'fr'],
    ['MC', 'fr'],
    ['CA-QC', 'fr'],
    ['ca-qc', 'fr'],
    ['CA-ON', 'en'],
    ['CA', 'en'],
    ['MX', 'es'],
    ['PE', 'es'],
    ['BR', 'pt'],
    ['US-CA', 'en'],
    ['GB', 'en'],
  ])("else the jurisdiction's language: %s → %s", (jurisdiction, expected) => {
    expect(resolveLocale(null, jurisdiction)).toBe(expected);
    expect(resolveLocale('zz', jurisdiction)).toBe(expected);
  });

  it('else English', () => {
    expect(resolveLocale(undefined)).toBe('en');
    expect(resolveLocale('', '')).toBe('en');
    expect(resolveLocale('klingon', null)).toBe('en');
  });
});
