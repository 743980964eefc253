import { FALLBACK_LOCALE, isLocale, type Locale } from './notification-kinds';

/**
 * The language of a jurisdiction, for requests that did not state one. Keyed
 * by the full code first (CA-QC is French, the rest of Canada is not), then
 * by the country part (DE-BY → DE).
 */
const JURISDICTION_LOCALES: Readonly<Record<string, Locale>> = {
  DE: 'de',
  AT: 'de',
  CH: 'de',
  LI: 'de',
  FR: 'fr',
  BE: 'fr',
  LU: 'fr',
  MC: 'fr',
  'CA-QC': 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  PE: 'es',
  PT: 'pt',
  BR: 'pt',
};

/**
 * The locale to write in: the requested one when we have it ('de-AT' → 'de',
 * 'pt_BR' → 'pt'; an Accept-Language list is read in order), else the
 * jurisdiction's language, else English.
 */
export function resolveLocale(requested: string | null | undefined, jurisdiction?: string | null): Locale {
  for (const tag of (requested ?? '').split(',')) {
    const language = tag.split(';')[0].trim().split(/[-_]/)[0].toLowerCase();
    if (isLocale(language)) return language;
  }
  const code = (jurisdiction ?? '').trim().toUpperCase().replace(/_/g, '-');
  return JURISDICTION_LOCALES[code] ?? JURISDICTION_LOCALES[code.split('-')[0]] ?? FALLBACK_LOCALE;
}
