import type { RequestLocale } from '@dsar/contracts';
import { DEFAULT_LOCALE, localeFromBrowser, PORTAL_LOCALES, portalLocaleOf } from './language';

/** Fails to compile when a request's language is not one of the page's, or the other way round. */
const everyRequestLocale: Record<RequestLocale, true> = { en: true, de: true, fr: true, es: true, pt: true, it: true, nl: true };

describe("the page's language", () => {
  it('is one of the languages a request may have', () => {
    expect([...PORTAL_LOCALES].sort()).toEqual(Object.keys(everyRequestLocale).sort());
    expect(DEFAULT_LOCALE).toBe('en');
  });

  it('reads a language tag by its primary language, whatever its region and case', () => {
    expect(portalLocaleOf('de-AT')).toBe('de');
    expect(portalLocaleOf('PT-br')).toBe('pt');
    expect(portalLocaleOf('nl')).toBe('nl');
    expect(portalLocaleOf('fr_CA')).toBe('fr');
    expect(portalLocaleOf('sv-SE')).toBeUndefined();
    expect(portalLocaleOf('')).toBeUndefined();
    expect(portalLocaleOf(null)).toBeUndefined();
  });

  it("takes the first of the browser's languages the page speaks, else English", () => {
    expect(localeFromBrowser(['sv-SE', 'it-IT', 'de-DE'])).toBe('it');
    expect(localeFromBrowser(['es-419', 'en'])).toBe('es');
    expect(localeFromBrowser(['sv', 'fi'])).toBe('en');
    expect(localeFromBrowser([])).toBe('en');
    expect(localeFromBrowser(undefined)).toBe('en');
  });
});
