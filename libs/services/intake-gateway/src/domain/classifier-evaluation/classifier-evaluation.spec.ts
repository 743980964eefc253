import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { REQUEST_TYPES } from '@dsar/contracts';
import { classifyMessage } from '../message-classifier';

/**
 * The classifier measured on the labelled messages of this folder (one file per
 * language): "is it a data subject request?" must reach precision 0.95 and
 * recall 0.9 over the whole set, and docs/intake.md must show the figures this
 * test computes, per language, with those of the held-out messages (written
 * after the classifier last changed) apart.
 */

const TARGETS = { precision: 0.95, recall: 0.9 };
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt'] as const;
const CATEGORIES = ['request', 'reply', 'newsletter', 'spam', 'out_of_office', 'bounce', 'support', 'notice', 'other'] as const;

interface Labelled {
  id: string;
  language: string;
  category: (typeof CATEGORIES)[number];
  request: boolean;
  type?: string;
  heldOut?: boolean;
  subject: string;
  text: string;
  from?: string;
  headers?: Record<string, string>;
}

function loadSet(): Labelled[] {
  const files = readdirSync(__dirname).filter((f) => /^labelled-messages\.[a-z]{2}\.yaml$/.test(f));
  return files.flatMap((file) => {
    const doc = parse(readFileSync(path.join(__dirname, file), 'utf8')) as { language: string; messages: Omit<Labelled, 'language'>[] };
    return doc.messages.map((m) => ({ ...m, language: doc.language }));
  });
}

interface Figures {
  messages: number;
  requests: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  typeRight: number;
}

/** Each message classified once (the figures group the same results several ways). */
const verdicts = new Map<string, ReturnType<typeof classifyMessage>>();
const verdictOf = (m: Labelled) => {
  if (!verdicts.has(m.id)) verdicts.set(m.id, classifyMessage({ subject: m.subject, text: m.text, from: m.from, headers: m.headers }));
  return verdicts.get(m.id)!;
};

function measure(messages: readonly Labelled[]): Figures {
  const figures: Figures = { messages: messages.length, requests: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0, typeRight: 0 };
  for (const m of messages) {
    const c = verdictOf(m);
    if (m.request) figures.requests++;
    if (c.isRequest && m.request) {
      figures.truePositives++;
      if (c.requestType === m.type) figures.typeRight++;
    }
    if (c.isRequest && !m.request) figures.falsePositives++;
    if (!c.isRequest && m.request) figures.falseNegatives++;
  }
  return figures;
}

/** Precision of nothing found is 1 (no false positive was made); recall of no request is 1. */
const precision = (f: Figures) => (f.truePositives + f.falsePositives === 0 ? 1 : f.truePositives / (f.truePositives + f.falsePositives));
const recall = (f: Figures) => (f.requests === 0 ? 1 : f.truePositives / f.requests);
const two = (x: number) => x.toFixed(2);

/** The row docs/intake.md shows for a group of messages. */
function row(label: string, all: readonly Labelled[]): string[] {
  const f = measure(all);
  const held = measure(all.filter((m) => m.heldOut));
  return [
    label,
    String(f.messages),
    String(f.requests),
    two(precision(f)),
    two(recall(f)),
    `${f.typeRight} of ${f.truePositives}`,
    `${held.truePositives} of ${held.requests}`,
    `${held.falsePositives} of ${held.messages - held.requests}`,
  ];
}

/** The table under "### Measured figures" in docs/intake.md, its cells trimmed, backticks dropped. */
function documentedTable(): string[][] {
  const lines = readFileSync(path.resolve(__dirname, '../../../../../../docs/intake.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === '### Measured figures');
  if (start < 0) throw new Error('docs/intake.md has no "### Measured figures" heading');
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

const set = loadSet();

describe('the labelled set', () => {
  it('has at least 100 messages, with unique ids, in each of the five languages', () => {
    expect(set.length).toBeGreaterThanOrEqual(100);
    expect(new Set(set.map((m) => m.id)).size).toBe(set.length);
    for (const language of LANGUAGES) expect(set.filter((m) => m.language === language).length).toBeGreaterThanOrEqual(20);
  });

  it('labels each message with a known category, the truth and, for a request, its type', () => {
    for (const m of set) {
      expect({ id: m.id, category: CATEGORIES.includes(m.category) }).toEqual({ id: m.id, category: true });
      expect({ id: m.id, request: m.request }).toEqual({ id: m.id, request: m.category === 'request' });
      if (m.request) expect({ id: m.id, type: (REQUEST_TYPES as readonly string[]).includes(m.type ?? '') }).toEqual({ id: m.id, type: true });
      expect(typeof m.subject === 'string' && typeof m.text === 'string').toBe(true);
    }
  });

  it('holds requests of every type and every kind of message that is not one', () => {
    expect(new Set(set.filter((m) => m.request).map((m) => m.type))).toEqual(new Set(REQUEST_TYPES));
    expect(new Set(set.map((m) => m.category))).toEqual(new Set(CATEGORIES));
    for (const language of LANGUAGES) {
      expect(new Set(set.filter((m) => m.language === language).map((m) => m.category))).toEqual(new Set(CATEGORIES));
    }
  });

  it('keeps some messages held out, requests and others', () => {
    const held = set.filter((m) => m.heldOut);
    expect(held.some((m) => m.request)).toBe(true);
    expect(held.some((m) => !m.request)).toBe(true);
  });
});

describe('the classifier on the labelled set', () => {
  const all = measure(set);

  it(`finds requests with precision ≥ ${TARGETS.precision} and recall ≥ ${TARGETS.recall}`, () => {
    expect(precision(all)).toBeGreaterThanOrEqual(TARGETS.precision);
    expect(recall(all)).toBeGreaterThanOrEqual(TARGETS.recall);
  });

  it('is described in docs/intake.md with the figures it reaches, per language and in all', () => {
    const expected = [
      ...LANGUAGES.map((language) =>
        row(
          language,
          set.filter((m) => m.language === language),
        ),
      ),
      row('all', set),
    ];
    expect(documentedTable()).toEqual(expected);
  });
});
