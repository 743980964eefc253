import type { RequestLocale } from '@dsar/contracts';

/**
 * The language the page speaks: the request's (the link's `language`) once the API has answered, and before that the
 * first of the browser's languages the page has texts in, else English.
 */
export type PortalLocale = RequestLocale;

/** REQUEST_LOCALES of the contracts, whose code the page does not bundle; texts.ts has a text of each for every one. */
export const PORTAL_LOCALES: readonly PortalLocale[] = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl'];
export const DEFAULT_LOCALE: PortalLocale = 'en';

/** The page's language for a language tag (`de-AT`, `PT-br`, `nl`); undefined for one it has no texts in. */
export function portalLocaleOf(tag: string | null | undefined): PortalLocale | undefined {
  if (typeof tag !== 'string') return undefined;
  const primary = tag.trim().split(/[-_]/, 1)[0].toLowerCase();
  return PORTAL_LOCALES.find((locale) => locale === primary);
}

/** The first of the browser's languages (`navigator.languages`, in the person's order) the page speaks, else English. */
export function localeFromBrowser(languages: readonly string[] | undefined): PortalLocale {
  for (const tag of languages ?? []) {
    const locale = portalLocaleOf(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
