import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REQUEST_TYPES, type RequestType } from '@dsar/contracts';
import { AGENT_CUES, ASK_CUES, BOILERPLATE_RULES, OTHER_AGENT_CUES, OTHER_LAW_NAMES } from './letter-reading-rules';
import {
  AUTO_REPLY_CUES,
  BOUNCE_CUES,
  BULK_CUES,
  FIRST_PERSON_CUES,
  INFORMATIONAL_CUES,
  LEGAL_CUES,
  NOT_A_REQUEST_CUES,
  OWN_DATA_CUES,
  REQUEST_MARKERS,
  SPAM_CUES,
  UNREAD_LANGUAGE_CUES,
} from './message-classifier-rules';
import { compileGuarded, normalize, occursIn, requiredLiteral, standingMatches } from './request-type-inference';
import { REQUEST_TYPE_RULES, RULE_LANGUAGES } from './request-type-rules';

/**
 * The phrase matcher under the letter reader: normalization, word boundaries,
 * negation, the literal guard of each pattern, and the rule table's shape and
 * documentation. What a letter reads as is letter-reading.spec.ts's.
 */

/** The types whose phrases stand (not negated) in a text. */
const standingTypes = (text: string): Set<RequestType> => new Set(standingMatches(normalize(text)).map((m) => m.rule.requestType));

describe('normalization', () => {
  it.each<[string, string]>([
    ['Löschung', 'loschung'],
    ['Exclusão', 'exclusao'],
    ['Straße', 'strasse'],
    ['Œuvre', 'oeuvre'],
    ['don’t', "don't"],
    ['opt–out', 'opt-out'],
    ['Please\n\n  delete   my\tdata', 'please delete my data'],
  ])('%j → %j', (text, normalized) => {
    expect(normalize(text)).toBe(normalized);
  });

  it.each<[string, RequestType]>([
    ['Bitte Loschung meiner Daten.', 'deletion'],
    ['Bitte Loeschung meiner Daten.', 'deletion'],
    ['Ich bitte um Datenubertragbarkeit.', 'portability'],
    ['Solicito la rectificacion de mis datos.', 'rectification'],
    ['Pedido de exclusao dos meus dados.', 'deletion'],
    ['PLEASE DELETE MY DATA', 'deletion'],
    ['I want to opt-out.', 'opt_out'],
  ])('matches %j with or without diacritics and case: %s', (text, type) => {
    expect(standingTypes(text).has(type)).toBe(true);
  });
});

describe('word boundaries', () => {
  it.each([['Your app says my messages are undeletable.'], ['No sarcasm intended, where is my parcel?'], ['I cancelled my order yesterday.']])('%s matches no phrase of deletion or access', (text) => {
    expect(standingTypes(text).has('deletion')).toBe(false);
    expect(standingTypes(text).has('access')).toBe(false);
  });
});

describe('negation', () => {
  it.each<[string, RequestType]>([
    ["Don't delete my account, just send me a copy.", 'deletion'],
    ['Please do not delete anything.', 'deletion'],
    ['Ne supprimez pas mon compte.', 'deletion'],
    ['No borren mi cuenta.', 'deletion'],
    ['Não apaguem a minha conta.', 'deletion'],
    // "eliminar" is Spanish and Portuguese alike; the Portuguese cue negates it.
    ['Não quero eliminar a minha conta.', 'deletion'],
    // German and Dutch put the negation after the verb, at the clause's end.
    ['Eine Löschung beantrage ich nicht.', 'deletion'],
    ['Verwijder mijn account niet.', 'deletion'],
  ])('cancels the negated phrase: %s (%s)', (text, type) => {
    expect(standingTypes(text).has(type)).toBe(false);
  });

  it.each<[string, RequestType]>([
    ["I can't delete my account myself, please do it for me.", 'deletion'],
    ["Don't wait, delete my data now.", 'deletion'],
    ["I don't want to wait any longer but please delete my data.", 'deletion'],
    // The French relative pronoun "dont" is no English "don't".
    ['Voici les données dont je demande la suppression.', 'deletion'],
    // "nicht nur" is no trailing negation: the clause goes on.
    ['Bitte löschen Sie nicht nur mein Konto, sondern alle Daten.', 'deletion'],
    // Opt-out and objection are worded negatively; a cue does not cancel them.
    ['Please do not sell my data.', 'opt_out'],
    ['Ich möchte keine Werbung mehr erhalten.', 'opt_out'],
  ])('leaves a phrase outside the negation standing: %s (%s)', (text, type) => {
    expect(standingTypes(text).has(type)).toBe(true);
  });
});

describe('the rule table', () => {
  it('gives every type rules in every language', () => {
    for (const requestType of REQUEST_TYPES) {
      for (const language of RULE_LANGUAGES) {
        expect(REQUEST_TYPE_RULES.filter((r) => r.requestType === requestType && r.language === language).map((r) => r.id)).toEqual([`${requestType}.${language}`]);
      }
    }
  });

  it('writes every pattern in normalized form, so that it can match', () => {
    for (const { patterns } of REQUEST_TYPE_RULES) {
      for (const pattern of patterns) {
        for (const word of pattern.split(' ')) expect(word).toMatch(/^(\.\.\.|\*?[a-z0-9'.]+\*?)$/);
      }
    }
  });

  it('is listed in docs/intake.md, one row per rule with all its patterns', () => {
    const docs = readFileSync(path.resolve(__dirname, '../../../../../docs/intake.md'), 'utf8').split('\n');
    for (const { id, patterns } of REQUEST_TYPE_RULES) {
      const row = docs.find((line) => line.startsWith(`| \`${id}\` |`));
      expect(row).toBeDefined();
      for (const pattern of patterns) expect(row).toContain(`\`${pattern}\``);
    }
  });
});

describe('the literal guard of each pattern', () => {
  const cueLists = [
    OWN_DATA_CUES,
    FIRST_PERSON_CUES,
    REQUEST_MARKERS,
    LEGAL_CUES,
    INFORMATIONAL_CUES,
    AUTO_REPLY_CUES,
    BOUNCE_CUES,
    BULK_CUES,
    SPAM_CUES,
    ...Object.values(NOT_A_REQUEST_CUES),
    ASK_CUES,
    AGENT_CUES,
    ...BOILERPLATE_RULES.map((b) => b.cues),
  ];
  const patterns = [
    ...REQUEST_TYPE_RULES.flatMap((r) => r.patterns),
    ...cueLists.flatMap((cues) => Object.values(cues).flat()),
    ...OTHER_AGENT_CUES,
    ...OTHER_LAW_NAMES,
    ...UNREAD_LANGUAGE_CUES.data,
    ...UNREAD_LANGUAGE_CUES.ask,
  ];

  it.each([
    ['do not sell', 'sell'],
    ["droit a l'oubli", 'droit'],
    ["je m'oppose", 'oppose'],
    ['*auskunft*', 'auskunft'],
    ['art. ... dsgvo', 'dsgvo'],
    ['verkauf* ... daten', 'verkauf'],
    ['1798.120', '1798.120'],
  ])('of %p is %p', (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  /** A text a pattern describes: each gap one word, each wildcard some letters, each optional dot kept. */
  const instanceOf = (pattern: string): string =>
    pattern
      .split(' ')
      .map((word) => (word === '...' ? 'und' : word.replace(/^\*/, 'ab').replace(/\*$/, 'en')))
      .join(' ');

  it('is never empty and is in every text the pattern matches', () => {
    for (const pattern of patterns) {
      const { regex, literal } = compileGuarded(pattern);
      const text = `vorher ${instanceOf(pattern)} nachher`;
      expect({ pattern, literal: literal.length > 0 }).toEqual({ pattern, literal: true });
      expect({ pattern, matches: occursIn({ regex, literal }, text), contains: text.includes(literal) }).toEqual({ pattern, matches: true, contains: true });
    }
  });

  it('leaves every match of the unguarded expression in place', () => {
    // Texts where the optional parts are left out: the apostrophe, the abbreviation dot.
    for (const pattern of patterns) {
      const { regex, literal } = compileGuarded(pattern);
      const bare = instanceOf(pattern)
        .replace(/'/g, '')
        .replace(/\.(?= |$)/g, '');
      if (bare.search(regex) >= 0) expect({ pattern, contains: bare.includes(literal) }).toEqual({ pattern, contains: true });
    }
  });
});
