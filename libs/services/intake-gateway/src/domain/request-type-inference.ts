import { type RequestType } from '@dsar/contracts';
import {
  CLAUSE_BREAKERS,
  LANGUAGE_HINTS,
  NEGATABLE_TYPES,
  NEGATION_CUES,
  NEGATION_SCOPE_WORDS,
  REQUEST_TYPE_RULES,
  type RequestTypeRule,
  TRAILING_NEGATION_CUES,
  type RuleLanguage,
} from './request-type-rules';

/**
 * The phrase matcher of the letter reader (letter-reading.ts): the text
 * normalized, every pattern of REQUEST_TYPE_RULES found on word boundaries,
 * and the negated matches dropped. Pure and deterministic; the rules are data
 * in request-type-rules.ts and are documented in docs/intake.md. The pattern
 * compiler here also serves the cue lists of the classifier and the reader.
 */

/**
 * The matches of the request-type phrases in a normalized text that stand:
 * those of a negatable type with a negation cue right before them are left
 * out ("don't delete my account, just send me a copy").
 */
export function standingMatches(text: string): Match[] {
  const matches = findMatches(text);
  const negatedStarts = negatedPositions(text, matches);
  return matches.filter((m) => !(NEGATABLE.has(m.rule.requestType) && negatedStarts.has(m.start)));
}

/** One place in the text where one pattern of one rule matched. */
export interface Match {
  rule: RequestTypeRule;
  /** Position of the rule in the table. */
  order: number;
  start: number;
  length: number;
}

/**
 * Lower case, diacritics removed (NFD, then the combining marks dropped:
 * "Löschung" → "loschung", "exclusão" → "exclusao"), ß, œ and æ (which NFD
 * leaves whole) spelled out, typographic apostrophes and dashes made plain,
 * whitespace collapsed. The patterns are written in this form.
 */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[’‘ʼ´`]/g, "'")
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

// The pattern syntax of request-type-rules.ts, compiled to regular expressions.
const LETTER_OR_DIGIT = '[\\p{L}\\p{N}]';
const WORD_START = `(?<!${LETTER_OR_DIGIT})`;
const WORD_END = `(?!${LETTER_OR_DIGIT})`;
const SEPARATOR = '[\\s-]+';
// A word a `...` gap may skip: no clause punctuation, except the dot of a short abbreviation ("Art. 15 Abs. 3 DSGVO").
const GAP_WORD = '(?:[^\\s.,;:!?]+|\\p{L}{1,4}\\.)';
const GAP = `(?:${SEPARATOR}${GAP_WORD}){0,3}`;

function compilePattern(pattern: string): RegExp {
  const words = pattern.split(' ');
  let source = '';
  words.forEach((word, i) => {
    if (word === '...') {
      source += GAP;
      return;
    }
    const previous = words[i - 1];
    // After an abbreviation's optional dot the separator is optional too: "art.15".
    if (previous !== undefined) source += previous !== '...' && previous.endsWith('.') ? '[\\s-]*' : SEPARATOR;
    source += compileWord(word);
  });
  return new RegExp(`${WORD_START}${source}${WORD_END}`, 'gu');
}

/** A word of a pattern without its wildcards and its abbreviation dot: the letters it must match literally. */
function coreOf(word: string): { core: string; leading: boolean; trailing: '' | '*' | '.' } {
  const leading = word.startsWith('*');
  const trailing = word.endsWith('*') ? '*' : word.endsWith('.') ? '.' : '';
  return { core: word.slice(leading ? 1 : 0, trailing ? -1 : undefined), leading, trailing };
}

function compileWord(word: string): string {
  const anyLetters = `${LETTER_OR_DIGIT}*`;
  const { core, leading, trailing } = coreOf(word);
  const body = [...core].map((ch) => (ch === "'" ? "'?" : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return `${leading ? anyLetters : ''}${body}${trailing === '*' ? anyLetters : trailing === '.' ? '\\.?' : ''}`;
}

/**
 * A pattern's regular expression and a piece of text every match of it contains: the longest run of a word's
 * letters that the expression matches literally (an apostrophe is optional, so it splits a run). Scanning a text
 * with a regular expression that starts with a look-behind costs a try at every position, for each of the
 * hundreds of patterns; `includes` rules most of them out first, so that only the few whose words occur run.
 */
export interface GuardedPattern {
  regex: RegExp;
  literal: string;
}

export function requiredLiteral(pattern: string): string {
  return pattern
    .split(' ')
    .filter((word) => word !== '...')
    .flatMap((word) => coreOf(word).core.split("'"))
    .reduce((longest, run) => (run.length > longest.length ? run : longest), '');
}

export function compileGuarded(pattern: string): GuardedPattern {
  return { regex: compilePattern(pattern), literal: requiredLiteral(pattern) };
}

/** Whether a guarded pattern occurs in a normalized text (`search` ignores the expression's global state). */
export const occursIn = (pattern: GuardedPattern, normalized: string): boolean => normalized.includes(pattern.literal) && normalized.search(pattern.regex) >= 0;

const COMPILED_RULES = REQUEST_TYPE_RULES.map((rule, order) => ({ rule, order, patterns: rule.patterns.map(compileGuarded) }));

function findMatches(text: string): Match[] {
  const matches: Match[] = [];
  for (const { rule, order, patterns } of COMPILED_RULES) {
    for (const { regex, literal } of patterns) {
      if (!text.includes(literal)) continue;
      for (const m of text.matchAll(regex)) matches.push({ rule, order, start: m.index, length: m[0].length });
    }
  }
  return matches;
}

// Negation: see NEGATION_CUES and CLAUSE_BREAKERS in request-type-rules.ts.
const NEGATABLE: ReadonlySet<RequestType> = new Set(NEGATABLE_TYPES);
const CUES = mapLanguages(NEGATION_CUES);
const BREAKERS = mapLanguages(CLAUSE_BREAKERS);
const CLAUSE_PUNCTUATION = /[.,;:!?()"]/;
/** Enough characters for NEGATION_SCOPE_WORDS words, long German compounds included. */
const LOOKBACK_CHARS = 200;

/**
 * The starts of negated matches. A place counts as negated when a cue of the
 * language of any rule matching there precedes it, so a word several languages
 * share ("eliminar") is negated by the Portuguese "não" as by the Spanish "no",
 * while the French relative pronoun "dont" never negates a French word.
 */
function negatedPositions(text: string, matches: readonly Match[]): ReadonlySet<number> {
  const languagesAt = new Map<number, Set<RuleLanguage>>();
  for (const m of matches) {
    if (!NEGATABLE.has(m.rule.requestType)) continue;
    const languages = languagesAt.get(m.start) ?? new Set<RuleLanguage>();
    languages.add(m.rule.language);
    languagesAt.set(m.start, languages);
  }
  const negated = new Set<number>();
  for (const [start, languages] of languagesAt) {
    const wordsBefore = precedingWordsOfClause(text, start);
    if ([...languages].some((language) => isNegatedIn(language, wordsBefore))) negated.add(start);
    else if ([...languages].some((language) => endsNegated(language, followingWordsOfClause(text, start)))) negated.add(start);
  }
  return negated;
}

/** The words from `start` to the end of its clause (the match's own words first), at most NEGATION_SCOPE_WORDS + 1 past it. */
function followingWordsOfClause(text: string, start: number): string[] {
  const clause = text.slice(start, start + LOOKBACK_CHARS).split(CLAUSE_PUNCTUATION)[0] ?? '';
  return clause
    .split(' ')
    .map((w) => w.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, ''))
    .filter((w) => w.length > 0);
}

/** Whether the clause ends, within a few words, in the language's trailing negation ("… beantrage ich nicht"). */
function endsNegated(language: RuleLanguage, wordsFrom: readonly string[]): boolean {
  const cues = TRAILING_NEGATION_CUES[language];
  if (!cues || wordsFrom.length < 2 || wordsFrom.length > NEGATION_SCOPE_WORDS + 1) return false;
  const last = wordsFrom[wordsFrom.length - 1];
  return cues.includes(last);
}

/** Up to NEGATION_SCOPE_WORDS words before `start`, nearest first, stopping at clause punctuation. */
function precedingWordsOfClause(text: string, start: number): string[] {
  const clause =
    text
      .slice(Math.max(0, start - LOOKBACK_CHARS), start)
      .split(CLAUSE_PUNCTUATION)
      .pop() ?? '';
  return clause
    .split(' ')
    .map((w) => w.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, ''))
    .filter((w) => w.length > 0)
    .reverse()
    .slice(0, NEGATION_SCOPE_WORDS);
}

function isNegatedIn(language: RuleLanguage, wordsBefore: readonly string[]): boolean {
  for (const word of wordsBefore) {
    if (BREAKERS.get(language)?.has(word)) return false;
    if (CUES.get(language)?.has(word)) return true;
  }
  return false;
}

const HINTS = mapLanguages(LANGUAGE_HINTS);

/**
 * The language whose LANGUAGE_HINTS the text uses most; null when it uses none,
 * or two languages equally. For a text no rule matched (a message classified as
 * no request still reports its language).
 */
export function likelyLanguage(rawText: string): RuleLanguage | null {
  const ranked = [...languageHintCounts(normalize(rawText))].sort(([, a], [, b]) => b - a);
  const [first, second] = ranked;
  return first && first[1] > 0 && first[1] !== second?.[1] ? first[0] : null;
}

/** How many words of each language's LANGUAGE_HINTS the text contains. */
function languageHintCounts(text: string): ReadonlyMap<RuleLanguage, number> {
  const words = text.split(/[^\p{L}']+/u);
  return new Map([...HINTS].map(([language, hints]) => [language, words.filter((w) => hints.has(w)).length]));
}

function mapLanguages(words: Readonly<Record<RuleLanguage, readonly string[]>>): ReadonlyMap<RuleLanguage, ReadonlySet<string>> {
  return new Map(Object.entries(words).map(([language, list]) => [language as RuleLanguage, new Set(list)]));
}
