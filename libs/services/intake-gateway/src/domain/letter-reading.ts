import { REQUEST_TYPES, type RequestLocale, type RequestType, type TriageReason } from '@dsar/contracts';
import { isSupportedLanguage, type LanguageDetector } from './language/language-detector';
import {
  AGENT_CUES,
  ASK_CUES,
  BOILERPLATE_RULES,
  type BoilerplateRule,
  FULL_STRENGTH,
  LAW_CITATION_RULES,
  OTHER_AGENT_CUES,
  OTHER_LAW_NAMES,
  SECONDARY_TO,
  SECTION_CITATIONS,
  TRIAGE_CONFIDENCE_THRESHOLD,
  WEIGHTS,
} from './letter-reading-rules';
import { compileGuarded, type GuardedPattern, likelyLanguage, normalize, standingMatches } from './request-type-inference';
import type { RuleLanguage } from './request-type-rules';

export { TRIAGE_CONFIDENCE_THRESHOLD } from './letter-reading-rules';

/** One right a letter asks for, with the words that showed it. */
export interface RequestedRight {
  type: RequestType;
  /** The sentence that showed it, as written (white space collapsed), at most 160 characters. */
  phrase: string;
  /** `citation`: an article or section of the law named it; `phrase`: the letter's own words. */
  basis: 'citation' | 'phrase';
}

/** What a letter asks for, in which language, from whom, and how sure the reading is (docs/intake.md#how-a-letter-is-read). */
export interface LetterReading {
  /** The primary type; null sends the request to triage. */
  requestType: RequestType | null;
  /** The best reading even under the threshold; null when nothing matched or the language is not read. */
  suggestedType: RequestType | null;
  /** Every right asked, the primary (or suggested) one first; [] for a language not read. */
  requestedRights: RequestedRight[];
  /** 0..1, two decimals. */
  confidence: number;
  triageReason: TriageReason | null;
  /** The detected ISO 639-1 code, any language. */
  language: string | null;
  /** `language` when intake reads it (REQUEST_LOCALES), else null. */
  locale: RequestLocale | null;
  requestorType: 'subject' | 'authorized_agent';
  /** The deciding rule: a phrase rule's id (`deletion.en`), a citation's (`citation.gdpr`, `citation.section`), or `none`. */
  rule: string;
}

/** The longest phrase reported for a right. */
const PHRASE_CHARS = 160;

/** A sentence of the letter: its original words and their normalized form. */
interface Sentence {
  original: string;
  normalized: string;
  /** Where its normalized form starts in the joined text. */
  start: number;
  subject: boolean;
}

/** One piece of evidence for a right. */
interface Evidence {
  type: RequestType;
  weight: number;
  basis: 'citation' | 'phrase';
  rule: string;
  /** Position in the joined normalized text: the earlier wins a tie. */
  start: number;
  sentence: number;
}

/**
 * Sentences are joined with this: the pattern syntax never crosses a dot, so
 * no phrase and no `...` gap runs from one sentence into the next.
 */
const JOINER = ' . ';

/**
 * Abbreviations whose dot ends no sentence even before a capital ("Cal. Civ. Code", "Dr. Weber", "z. B. Ihre"),
 * lower case, without the dot. A dot before a digit or a lower-case letter ends no sentence either ("Art. 15",
 * "Abs. 3", "etc. and").
 */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'art',
  'arts',
  'artt',
  'abs',
  'nr',
  'no',
  'nos',
  'cal',
  'civ',
  'ca',
  'lit',
  'bzw',
  'vgl',
  'ggf',
  'usw',
  'etc',
  'z',
  'b',
  'd',
  'h',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'sr',
  'sra',
  'sig',
  'dott',
  'ecc',
  'p',
  'pp',
  'cf',
  'sec',
  'ss',
  'par',
  'al',
  'inc',
  'ltd',
  'co',
  'mme',
  'mlle',
  'm',
  'dhr',
  'mevr',
  'sig.ra',
  'sres',
  'exmo',
  'exmos',
  'u',
  'ua',
  'v',
  'vs',
  'e',
  'g',
  'i',
  'ie',
  'eg',
]);
const BULLET = /^\s*(?:[-*•·–]|\(?[a-z0-9]{1,3}[).])\s/i;
const WORD_BEFORE = /[\p{L}\p{N}]+$/u;

/** Whether the dot at `i` of a line ends a sentence: followed by white space and no digit or lower-case letter, after no abbreviation. */
function dotEndsSentence(line: string, i: number): boolean {
  const after = line.slice(i + 1, i + 8).trimStart();
  if (after !== '' && /^[\p{Ll}\p{N}]/u.test(after)) return false;
  const word = WORD_BEFORE.exec(line.slice(Math.max(0, i - 12), i))?.[0].toLowerCase();
  return word === undefined || !ABBREVIATIONS.has(word);
}

/**
 * The sentences of a text: ended by `!`, `?`, `;`, a blank line, a line that
 * starts a list item, or a `.` that no abbreviation, digit or lower-case
 * word follows. A linear scan; no regular expression runs over more than a
 * line's rest at a time.
 */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let current = '';
  const flush = () => {
    const collapsed = current.replace(/\s+/g, ' ').trim();
    if (collapsed !== '') sentences.push(collapsed);
    current = '';
  };
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === '' || BULLET.test(line)) flush();
    let from = 0;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      const next = line[i + 1];
      const endsHere = (ch === '!' || ch === '?' || ch === ';' || ch === '.') && (next === undefined || next === ' ' || next === '\t');
      if (!endsHere || (ch === '.' && !dotEndsSentence(line, i))) continue;
      current += ` ${line.slice(from, i + 1)}`;
      from = i + 1;
      flush();
    }
    current += ` ${line.slice(from)}`;
  }
  flush();
  return sentences;
}

const byLanguage = (cues: Readonly<Record<RuleLanguage, readonly string[]>>) =>
  Object.entries(cues).flatMap(([language, patterns]) => patterns.map((p) => ({ language: language as RuleLanguage, pattern: compileGuarded(p) })));

const ASKING = byLanguage(ASK_CUES);
const AGENT = [...byLanguage(AGENT_CUES), ...OTHER_AGENT_CUES.map((p) => ({ language: null, pattern: compileGuarded(p) }))];
const BOILERPLATE = BOILERPLATE_RULES.map((rule) => ({ rule, patterns: byLanguage(rule.cues).map((c) => c.pattern) }));
const LAW_NAMES = LAW_CITATION_RULES.map((rule) => ({ rule, patterns: rule.names.map(compileGuarded) }));

/** Every start of a guarded pattern in a normalized text. */
function startsOf(pattern: GuardedPattern, text: string): number[] {
  if (!text.includes(pattern.literal)) return [];
  return [...text.matchAll(pattern.regex)].map((m) => m.index);
}

/** The index of the sentence holding a position of the joined text (sentence starts ascending). */
function sentenceAt(sentences: readonly Sentence[], position: number): number {
  let lo = 0;
  let hi = sentences.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sentences[mid].start <= position) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Article citations: a word for "article" (or §) in any of the languages, a
 * number of up to three digits, up to three bracketed paragraphs or items, and
 * a Roman item ("art. 18, VI"). Bounded repetitions only: linear.
 */
const ARTICLE =
  /(?<![\p{L}\p{N}])(?:art|arts|artt|article|articles|artikel|artikels|artikelen|articulo|articulos|artigo|artigos|articolo|articoli|artykul|artykulu|artykuł|artykułu|cl|clanek|clanku|clanok|madde|αρθρο|§§?)\.?\s?(\d{1,3})(?![\p{N}])((?:\s?\(\s?[0-9a-z]{1,4}\s?\)){0,3})(?:\s?,?\s?(?:inciso\s|incisos\s)?([ivx]{1,5})(?![\p{L}\p{N}]))?/gu;
/** After a citation: more numbers of a list ("15, 16 and 17"), or a range ("15 to 22"), which cites no single right. */
const LIST_TAIL = /\s?(,|and|und|et|y|e|en|&|or|oder|ou|o|to|through|bis|a|al|tot|-)\s?(\d{1,3})(?![\p{N}])(?:\s?\(\s?[0-9a-z]{1,4}\s?\)){0,3}/uy;
const RANGE_WORDS = new Set(['to', 'through', 'bis', 'a', 'al', 'tot', '-']);
/** Statute sections cited by number (`1798.105`, `59.1-577(a)(3)`), not inside a longer number. */
const SECTION = /(?<![\p{L}\p{N}.,-])(\d{1,4}[a-z]?(?:[.-]\d{1,4}){1,2})((?:\s?\(\s?[0-9a-z]{1,4}\s?\)){0,3})/gu;

const bracketed = (items: string): string[] => [...items.matchAll(/\(\s?([0-9a-z]{1,4})\s?\)/g)].map((m) => m[1]);

/** The right an article of a law grants: the most specific key first (`18.vi`, `7.3`), then the article. */
function rightOfArticle(articles: Readonly<Record<string, RequestType | null>>, article: string, items: string[], roman: string | undefined): RequestType | null | undefined {
  const keys = [...(roman ? [`${article}.${roman}`] : []), ...(items[0] ? [`${article}.${items[0]}`] : []), article];
  for (const key of keys) if (key in articles) return articles[key];
  return undefined;
}

function rightOfSection(section: string, items: string[]): RequestType | null | undefined {
  for (let n = items.length; n >= 0; n--) {
    const key = [section, ...items.slice(0, n)].join('.');
    if (key in SECTION_CITATIONS) return SECTION_CITATIONS[key];
  }
  return undefined;
}

interface BoilerplateSpan {
  rule: BoilerplateRule;
  sentence: number;
}

/**
 * Reads a letter: its language (eld), every right it asks for with the words
 * that showed it, the primary one with a confidence, and who wrote it. Pure
 * and deterministic given the detector. A language intake does not read goes
 * to triage with no type guessed; so does a letter where nothing matched, or
 * whose confidence is under TRIAGE_CONFIDENCE_THRESHOLD.
 */
export function readLetter(text: string, detector: LanguageDetector, options: { subject?: string } = {}): LetterReading {
  const subject = options.subject?.trim() ?? '';
  const whole = subject === '' ? text : `${subject}\n${text}`;
  const detected = whole.trim() === '' ? null : detector.detect(whole);
  const language = detected ?? likelyLanguage(whole);

  const sentences: Sentence[] = [];
  let offset = 0;
  const add = (original: string, isSubject: boolean) => {
    const normalized = normalize(original);
    if (normalized === '') return;
    if (sentences.length > 0) offset += JOINER.length;
    sentences.push({ original, normalized, start: offset, subject: isSubject });
    offset += normalized.length;
  };
  if (subject !== '') add(subject, true);
  for (const s of splitSentences(text)) add(s, false);
  const joined = sentences.map((s) => s.normalized).join(JOINER);

  const requestorType = AGENT.some(({ pattern }) => startsOf(pattern, joined).length > 0) ? 'authorized_agent' : 'subject';
  const base = { language, requestorType, confidence: 0 } as const;
  if (language !== null && !isSupportedLanguage(language)) {
    return { ...base, requestType: null, suggestedType: null, requestedRights: [], triageReason: 'unsupported_language', locale: null, rule: 'none' };
  }
  const locale = isSupportedLanguage(language) ? language : null;

  const asked = new Set<number>();
  for (const { pattern } of ASKING) for (const start of startsOf(pattern, joined)) asked.add(sentenceAt(sentences, start));
  const spans: BoilerplateSpan[] = [];
  for (const { rule, patterns } of BOILERPLATE) {
    for (const pattern of patterns) for (const start of startsOf(pattern, joined)) spans.push({ rule, sentence: sentenceAt(sentences, start) });
  }
  const suppressed = (type: RequestType, sentence: number, citation: boolean) => spans.some((s) => s.sentence === sentence && s.rule.suppresses.includes(type) && (citation || !s.rule.citationsOnly));

  const evidence: Evidence[] = [];
  for (const m of standingMatches(joined)) {
    const sentence = sentenceAt(sentences, m.start);
    if (suppressed(m.rule.requestType, sentence, false)) continue;
    const inSubject = sentences[sentence].subject;
    let weight = asked.has(sentence) ? WEIGHTS.askedPhrase : WEIGHTS.phrase;
    if (locale !== null && m.rule.language !== locale) weight *= WEIGHTS.otherLanguage;
    if (inSubject) weight += WEIGHTS.subjectBonus;
    evidence.push({ type: m.rule.requestType, weight, basis: 'phrase', rule: m.rule.id, start: m.start, sentence });
  }
  // Access is the most general ask: in a sentence that asks for another right, its words describe that right's object
  // ("erase the data you hold about me", "je m'oppose au traitement des données me concernant").
  const askedOther = new Set(evidence.filter((e) => e.type !== 'access' && e.weight >= WEIGHTS.askedPhrase).map((e) => e.sentence));
  for (let i = evidence.length - 1; i >= 0; i--) if (evidence[i].type === 'access' && askedOther.has(evidence[i].sentence)) evidence.splice(i, 1);
  for (const c of citations(joined, sentences)) {
    if (suppressed(c.type, c.sentence, true)) continue;
    evidence.push({ ...c, weight: c.weight + (sentences[c.sentence].subject ? WEIGHTS.subjectBonus : 0) });
  }
  return decide(evidence, sentences, { language, locale, requestorType });
}

/** The article and section citations of the letter, each with the right it names. */
function citations(joined: string, sentences: readonly Sentence[]): Evidence[] {
  const lawsAt: { law: (typeof LAW_NAMES)[number]['rule']; start: number; sentence: number }[] = [];
  for (const { rule, patterns } of LAW_NAMES) {
    for (const pattern of patterns) for (const start of startsOf(pattern, joined)) lawsAt.push({ law: rule, start, sentence: sentenceAt(sentences, start) });
  }
  const lawsNamed = new Set(lawsAt.map((l) => l.law.law));
  const found: Evidence[] = [];
  {
    for (const m of joined.matchAll(ARTICLE)) {
      const sentence = sentenceAt(sentences, m.index);
      const numbers: { article: string; items: string[]; roman?: string }[] = [{ article: m[1], items: bracketed(m[2] ?? ''), roman: m[3] }];
      let range = false;
      LIST_TAIL.lastIndex = m.index + m[0].length;
      for (let i = 0; i < 6; i++) {
        const tail = LIST_TAIL.exec(joined);
        if (!tail) break;
        if (RANGE_WORDS.has(tail[1])) range = true;
        numbers.push({ article: tail[2], items: bracketed(tail[0]) });
      }
      // "Articles 15 to 22" lists the rights, it asks none of them.
      if (range) continue;
      // The law named nearest in the same sentence; else the only law the letter names; else the GDPR's numbering, weighing less.
      const near = lawsAt.filter((l) => l.sentence === sentence).sort((a, b) => Math.abs(a.start - m.index) - Math.abs(b.start - m.index))[0];
      const law = near?.law ?? (lawsNamed.size === 1 ? lawsAt[0].law : LAW_CITATION_RULES[0]);
      const named = near !== undefined || lawsNamed.size === 1;
      // In a list ("Art. 15, 16 und 21"), the first cited weighs a little more: letters list their main ask first.
      numbers.forEach((n, i) => {
        const type = rightOfArticle(law.articles, n.article, n.items, n.roman);
        if (!type) return;
        const weight = (named ? WEIGHTS.citation : WEIGHTS.bareCitation) - WEIGHTS.listStep * i;
        found.push({ type, weight, basis: 'citation', rule: `citation.${law.law}`, start: m.index + i, sentence });
      });
    }
  }
  for (const m of joined.matchAll(SECTION)) {
    const type = rightOfSection(m[1], bracketed(m[2] ?? ''));
    if (!type) continue;
    found.push({ type, weight: WEIGHTS.citation, basis: 'citation', rule: 'citation.section', start: m.index, sentence: sentenceAt(sentences, m.index) });
  }
  return found;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The phrase reported for a right: the sentence of its strongest evidence, cut to PHRASE_CHARS around the evidence. */
function phraseOf(e: Evidence, sentences: readonly Sentence[]): string {
  const original = sentences[e.sentence].original.replace(/\s+/g, ' ').trim();
  if (original.length <= PHRASE_CHARS) return original;
  // Normalization keeps most positions: centre the cut on where the evidence is in the normalized sentence.
  const at = Math.min(original.length, Math.max(0, e.start - sentences[e.sentence].start));
  const from = Math.max(0, Math.min(original.length - PHRASE_CHARS, at - PHRASE_CHARS / 3));
  let cut = original.slice(from, from + PHRASE_CHARS);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut.trim();
}

interface Scored {
  type: RequestType;
  score: number;
  /** The score for the primary choice, after SECONDARY_TO. */
  primaryScore: number;
  strongest: Evidence;
}

function decide(
  evidence: readonly Evidence[],
  sentences: readonly Sentence[],
  known: { language: string | null; locale: RequestLocale | null; requestorType: 'subject' | 'authorized_agent' },
): LetterReading {
  const scored: Scored[] = [];
  for (const type of REQUEST_TYPES) {
    // One piece of evidence per sentence, its strongest: a sentence that names the data three ways asks once.
    const bySentence = new Map<number, Evidence>();
    for (const e of evidence) {
      if (e.type !== type) continue;
      const kept = bySentence.get(e.sentence);
      if (!kept || e.weight > kept.weight || (e.weight === kept.weight && e.start < kept.start)) bySentence.set(e.sentence, e);
    }
    const of = [...bySentence.values()].sort((a, b) => b.weight - a.weight || a.start - b.start);
    if (of.length === 0) continue;
    const rest = of.slice(1).reduce((sum, e) => sum + e.weight, 0);
    const score = of[0].weight + Math.min(WEIGHTS.restCap, WEIGHTS.restShare * rest);
    scored.push({ type, score, primaryScore: score, strongest: of[0] });
  }
  if (scored.length === 0) {
    return { ...known, requestType: null, suggestedType: null, requestedRights: [], confidence: 0, triageReason: 'no_rule_matched', rule: 'none' };
  }
  for (const { primary, secondary, share, whenPrimary, citedShare } of SECONDARY_TO) {
    const p = scored.find((s) => s.type === primary);
    const s = scored.find((x) => x.type === secondary);
    if (!p || !s || p.score < (whenPrimary === 'found' ? WEIGHTS.phrase : WEIGHTS.askedPhrase)) continue;
    // A cited right is the letter's own legal reading of its ask: it is no mere ground of a right asked in words,
    // unless the pair says the cited right is the usual ground of the other (an objection under Art. 21 of an erasure).
    const citedOverPhrase = s.strongest.basis === 'citation' && p.strongest.basis !== 'citation';
    if (!citedOverPhrase) s.primaryScore = s.score * share;
    else if (citedShare !== undefined) s.primaryScore = s.score * citedShare;
  }
  scored.sort((a, b) => b.primaryScore - a.primaryScore || a.strongest.start - b.strongest.start);
  const [best, second] = scored;
  const strength = Math.min(1, best.primaryScore / FULL_STRENGTH);
  const margin = second ? (best.primaryScore - second.primaryScore) / best.primaryScore : 1;
  const confidence = round2(strength * (0.5 + 0.5 * margin));
  const sure = confidence >= TRIAGE_CONFIDENCE_THRESHOLD;
  const rights = scored.filter((s) => s === best || s.score >= WEIGHTS.askedPhrase).sort((a, b) => (a === best ? -1 : b === best ? 1 : b.score - a.score || a.strongest.start - b.strongest.start));
  return {
    ...known,
    requestType: sure ? best.type : null,
    suggestedType: best.type,
    requestedRights: rights.map((s) => ({ type: s.type, phrase: phraseOf(s.strongest, sentences), basis: s.strongest.basis })),
    confidence,
    triageReason: sure ? null : 'low_confidence',
    rule: best.strongest.rule,
  };
}

const LAW_NAMES_ANY_LANGUAGE = [...LAW_CITATION_RULES.flatMap((r) => r.names), ...OTHER_LAW_NAMES].map(compileGuarded);

/**
 * What every language writes alike: a data-protection law's name (GDPR, RODO,
 * LGPD, CCPA, …) and an article or section cited that grants a right. The
 * classifier reads a message in a language intake does not read by these.
 */
export function lawCues(normalizedText: string): { lawNamed: boolean; rightCited: boolean } {
  const sentences: Sentence[] = [{ original: normalizedText, normalized: normalizedText, start: 0, subject: false }];
  return {
    lawNamed: LAW_NAMES_ANY_LANGUAGE.some((p) => startsOf(p, normalizedText).length > 0),
    rightCited: citations(normalizedText, sentences).length > 0,
  };
}
