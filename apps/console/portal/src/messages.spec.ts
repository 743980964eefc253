import { PORTAL_LOCALES } from './language';
import { fill, isFinal, problemMessage, textsOf } from './messages';
import type { ProblemKind } from './problems';
import { TEXTS, type Texts } from './texts';

/** Every text of a language with its path (`problems.locked.title`), for checks that go over all of them. */
function entries(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => entries(inner, path ? `${path}.${key}` : key));
}

const placeholders = (text: string) => [...text.matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]).sort();

describe("the page's texts", () => {
  const english = new Map(entries(TEXTS.en));

  it('exist in every language, with the same texts as English and no blank one', () => {
    for (const locale of PORTAL_LOCALES) {
      const texts = entries(TEXTS[locale]);
      expect({ locale, paths: texts.map(([path]) => path).sort() }).toEqual({ locale, paths: [...english.keys()].sort() });
      for (const [path, text] of texts) expect({ locale, path, blank: text.trim() === '' }).toEqual({ locale, path, blank: false });
    }
  });

  it('carry the same placeholders as English, and are translated (not English left in place)', () => {
    for (const locale of PORTAL_LOCALES.filter((l) => l !== 'en')) {
      const texts = new Map(entries(TEXTS[locale]));
      for (const [path, text] of texts) expect({ locale, path, placeholders: placeholders(text) }).toEqual({ locale, path, placeholders: placeholders(english.get(path)!) });
      const untranslated = [...texts].filter(([path, text]) => text === english.get(path)).map(([path]) => path);
      expect({ locale, untranslated }).toEqual({ locale, untranslated: [] });
    }
  });

  it('fill their placeholders, and leave an unknown one as it is', () => {
    expect(fill('Download {name}', { name: 'report.zip' })).toBe('Download report.zip');
    expect(fill('{name} and {name}', { name: 'a' })).toBe('a and a');
    expect(fill('Download {name}', {})).toBe('Download {name}');
    expect(fill('{constructor}', {})).toBe('{constructor}');
  });
});

describe('the message for a problem', () => {
  const kinds = Object.keys(TEXTS.en.problems) as ProblemKind[];

  it('says what happened and what to do, in words', () => {
    expect(problemMessage({ kind: 'incomplete_link' }, 'en')).toEqual({
      title: 'This link is incomplete',
      detail: 'Open the link from our email again. If you copied it, make sure you copied all of it.',
    });
    expect(problemMessage({ kind: 'locked' }, 'de').title).toBe('Dieser Link ist gesperrt');
    expect(problemMessage({ kind: 'expired' }, 'fr').title).toBe('Ce lien a expiré');
    for (const kind of kinds) expect(problemMessage({ kind } as never, 'en').detail).not.toMatch(/SVC-BE|HTTP|[0-9]{3}/);
  });

  it('tells how many codes are left after a wrong one, in the plural the language uses', () => {
    expect(problemMessage({ kind: 'wrong_code', attemptsLeft: 3 }, 'en').detail).toBe('Check the code in the second email and enter it again. You have 3 tries left.');
    expect(problemMessage({ kind: 'wrong_code', attemptsLeft: 1 }, 'en').detail).toMatch(/You have 1 try left\.$/);
    expect(problemMessage({ kind: 'wrong_code', attemptsLeft: 1 }, 'de').detail).toMatch(/Sie haben noch 1 Versuch\.$/);
    expect(problemMessage({ kind: 'wrong_code', attemptsLeft: 2 }, 'nl').detail).toMatch(/U hebt nog 2 pogingen\.$/);
    expect(problemMessage({ kind: 'wrong_code', attemptsLeft: null }, 'en').detail).toBe('Check the code in the second email and enter it again.');
  });

  it('tells how long to wait after too many tries, or to wait a few minutes when the API did not say', () => {
    expect(problemMessage({ kind: 'too_many_tries', retryAfterSeconds: 90 }, 'en').detail).toBe('The service received too many requests from your connection. Please try again in 2 minutes.');
    expect(problemMessage({ kind: 'too_many_tries', retryAfterSeconds: 30 }, 'es').detail).toMatch(/Vuelva a intentarlo dentro de 30 segundos\.$/);
    expect(problemMessage({ kind: 'too_many_tries', retryAfterSeconds: null }, 'en').detail).toMatch(/Please wait a few minutes and try again\.$/);
  });

  it('ends the page for a link that can do nothing more here, and leaves a retry for the rest', () => {
    expect(kinds.filter((kind) => isFinal({ kind } as never)).sort()).toEqual(['expired', 'incomplete_link', 'invalid_link', 'locked', 'session_ended', 'used']);
  });

  it('is looked up in the texts of the language', () => {
    const texts: Texts = textsOf('pt');
    expect(texts.title).toBe('Seus arquivos');
  });
});
