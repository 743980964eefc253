import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REQUEST_LOCALES, REQUEST_TYPES } from '@dsar/contracts';
import { loadLanguageDetector } from '../language/language-detector';
import type { MessageClassification } from '../message-classifier';
import { CATEGORIES, classifyAll, confusionTable, isSupported, languageFigures, languageTable, loadLabelledSet, precision, recall, requestFigures, typeFigures, typeTable } from './evaluation';

/**
 * The classifier and the letter reader measured on the labelled messages of
 * this folder (one file per language, and `other` for languages intake does not
 * read). The targets hold on the held-out part, which the rules were not tuned
 * on: "is it a request" precision and recall ≥ 0.95, the primary type of the
 * requests in a language intake reads ≥ 0.9 (a triage counts as wrong), the
 * detected language ≥ 0.97; a held-out request in another language ends in
 * triage. docs/intake.md must show the figures this test computes.
 */

const TARGETS = { precision: 0.95, recall: 0.95, type: 0.9, language: 0.97 };

const set = loadLabelledSet();
const held = set.filter((m) => m.heldOut);
let verdicts: Map<string, MessageClassification>;

beforeAll(async () => {
  verdicts = classifyAll(set, await loadLanguageDetector());
}, 60_000);

/** The table under a heading of docs/intake.md, its cells trimmed, backticks dropped, without its two header rows. */
function documentedTable(heading: string): string[][] {
  const lines = readFileSync(path.resolve(__dirname, '../../../../../../docs/intake.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`docs/intake.md has no "${heading}" heading`);
  const first = lines.findIndex((l, i) => i > start && l.startsWith('|'));
  const rows: string[][] = [];
  for (const l of lines.slice(first)) {
    if (!l.startsWith('|')) break;
    rows.push(
      l
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim().replace(/^`(.*)`$/, '$1')),
    );
  }
  return rows.slice(2);
}

describe('the labelled set', () => {
  it('has at least 400 messages with unique ids, in the seven languages intake reads and others', () => {
    expect(set.length).toBeGreaterThanOrEqual(400);
    expect(new Set(set.map((m) => m.id)).size).toBe(set.length);
    for (const language of REQUEST_LOCALES) expect({ language, messages: set.filter((m) => m.language === language).length >= 20 }).toEqual({ language, messages: true });
    expect(set.some((m) => m.file === 'other' && !isSupported(m))).toBe(true);
  });

  it('labels each message with a known category, the truth, its language and, for a request, its type, rights and requestor', () => {
    for (const m of set) {
      expect({ id: m.id, category: (CATEGORIES as readonly string[]).includes(m.category) }).toEqual({ id: m.id, category: true });
      expect({ id: m.id, request: m.request }).toEqual({ id: m.id, request: m.category === 'request' });
      expect({ id: m.id, language: /^[a-z]{2}$/.test(m.language), prefix: m.id.startsWith(`${m.language}-`) }).toEqual({ id: m.id, language: true, prefix: true });
      expect({ id: m.id, otherFileHoldsOthers: m.file === 'other' ? !isSupported(m) : m.language === m.file }).toEqual({ id: m.id, otherFileHoldsOthers: true });
      if (m.request) {
        const rights = m.rights ?? [m.type];
        expect({ id: m.id, type: (REQUEST_TYPES as readonly string[]).includes(m.type ?? '') }).toEqual({ id: m.id, type: true });
        expect({ id: m.id, rights: rights.every((r) => (REQUEST_TYPES as readonly string[]).includes(r ?? '')), primaryFirst: rights[0] === m.type }).toEqual({
          id: m.id,
          rights: true,
          primaryFirst: true,
        });
        expect({ id: m.id, requestor: ['subject', 'authorized_agent'].includes(m.requestor ?? 'subject') }).toEqual({ id: m.id, requestor: true });
      }
      expect(typeof m.subject === 'string' && typeof m.text === 'string').toBe(true);
    }
  });

  it('holds requests of every type, agents, multi-ask letters, and every kind of message that is not one', () => {
    expect(new Set(set.filter((m) => m.request).map((m) => m.type))).toEqual(new Set(REQUEST_TYPES));
    expect(new Set(set.map((m) => m.category))).toEqual(new Set(CATEGORIES));
    expect(set.some((m) => m.requestor === 'authorized_agent')).toBe(true);
    expect(set.some((m) => (m.rights?.length ?? 1) > 1)).toBe(true);
  });

  it('keeps a held-out part: requests and others, in languages intake reads and others', () => {
    expect(held.some((m) => m.request && isSupported(m))).toBe(true);
    expect(held.some((m) => m.request && !isSupported(m))).toBe(true);
    expect(held.some((m) => !m.request)).toBe(true);
  });
});

describe('the classifier on the held-out messages', () => {
  it(`finds requests with precision ≥ ${TARGETS.precision} and recall ≥ ${TARGETS.recall}`, () => {
    const f = requestFigures(held, verdicts);
    expect(precision(f)).toBeGreaterThanOrEqual(TARGETS.precision);
    expect(recall(f)).toBeGreaterThanOrEqual(TARGETS.recall);
  });

  it(`reads the primary type of ≥ ${TARGETS.type} of the requests in a language it reads (a triage counts as wrong)`, () => {
    const { right, of } = typeFigures(held, verdicts);
    expect(of).toBeGreaterThan(0);
    expect(right / of).toBeGreaterThanOrEqual(TARGETS.type);
  });

  it(`detects the language of ≥ ${TARGETS.language} of the messages`, () => {
    const { right, of } = languageFigures(held, verdicts);
    expect(right / of).toBeGreaterThanOrEqual(TARGETS.language);
  });

  it('sends a request in a language it does not read to triage, with no type guessed', () => {
    const unread = held.filter((m) => m.request && !isSupported(m));
    expect(unread.length).toBeGreaterThan(0);
    for (const m of unread) {
      const reading = verdicts.get(m.id)?.reading;
      expect({ id: m.id, requestType: reading?.requestType, suggestedType: reading?.suggestedType, triage: reading?.triageReason }).toEqual({
        id: m.id,
        requestType: null,
        suggestedType: null,
        triage: 'unsupported_language',
      });
    }
  });
});

describe('docs/intake.md', () => {
  it('shows the figures per language that this test computes', () => {
    expect(documentedTable('#### Per language')).toEqual(languageTable(set, verdicts));
  });

  it('shows the figures per type that this test computes', () => {
    expect(documentedTable('#### Per type')).toEqual(typeTable(set, verdicts));
  });

  it('shows the confusion matrix of the held-out requests that this test computes', () => {
    expect(documentedTable('#### Confusion matrix (held-out)')).toEqual(confusionTable(set, verdicts));
  });
});
