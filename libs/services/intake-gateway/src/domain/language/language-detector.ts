import { REQUEST_LOCALES, type RequestLocale } from '@dsar/contracts';

/** A language detector: the ISO 639-1 code of a text's language, or null when it cannot tell. */
export interface LanguageDetector {
  detect(text: string): string | null;
}

interface EldModel {
  detect(text: string): { language: string; isReliable(): boolean };
}

const loadEld = require('./load-eld.cjs') as () => Promise<EldModel>;

/** The Nest injection token of the process's LanguageDetector (IntakeGatewayModule provides it, loaded at start). */
export const LANGUAGE_DETECTOR = Symbol('LANGUAGE_DETECTOR');

let loaded: Promise<LanguageDetector> | undefined;

/** eld's medium model, loaded once per process (about 1 MB of n-grams, some 100 ms). */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  loaded ??= loadEld().then((eld) => ({
    detect(text: string): string | null {
      const result = eld.detect(text);
      return result.language === '' ? null : result.language;
    },
  }));
  return loaded;
}

/** Whether intake reads letters in the language (REQUEST_LOCALES): any other is captured for triage. */
export const isSupportedLanguage = (language: string | null): language is RequestLocale => language !== null && (REQUEST_LOCALES as readonly string[]).includes(language);
