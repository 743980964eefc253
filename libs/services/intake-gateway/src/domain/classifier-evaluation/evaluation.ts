import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { REQUEST_LOCALES, REQUEST_TYPES, type RequestType } from '@dsar/contracts';
import type { LanguageDetector } from '../language/language-detector';
import { classifyMessage, type MessageClassification } from '../message-classifier';

/**
 * The labelled messages of this folder and the figures the classifier reaches
 * on them: what classifier-evaluation.spec.ts checks against the targets and
 * against docs/intake.md, and what the read-letter benchmark reads.
 */

export const LANGUAGE_FILES = [...REQUEST_LOCALES, 'other'] as const;
export const CATEGORIES = ['request', 'reply', 'newsletter', 'spam', 'out_of_office', 'bounce', 'support', 'notice', 'other', 'complaint', 'feature_request'] as const;

export interface Labelled {
  id: string;
  /** The message's language: the file's, or the message's own in the `other` file. */
  language: string;
  /** The file it comes from: a language of REQUEST_LOCALES, or `other`. */
  file: (typeof LANGUAGE_FILES)[number];
  category: (typeof CATEGORIES)[number];
  request: boolean;
  type?: RequestType;
  rights?: RequestType[];
  requestor?: 'subject' | 'authorized_agent';
  heldOut?: boolean;
  subject: string;
  text: string;
  from?: string;
  headers?: Record<string, string>;
}

export function loadLabelledSet(dir: string = __dirname): Labelled[] {
  const files = readdirSync(dir)
    .filter((f) => /^labelled-messages\.[a-z]+\.yaml$/.test(f))
    .sort();
  return files.flatMap((file) => {
    const doc = parse(readFileSync(path.join(dir, file), 'utf8')) as { language: string; messages: (Omit<Labelled, 'language' | 'file'> & { language?: string })[] };
    const fileLanguage = file.split('.')[1] as Labelled['file'];
    return doc.messages.map((m) => ({ ...m, language: m.language ?? doc.language, file: fileLanguage }));
  });
}

export const isSupported = (m: Labelled): boolean => (REQUEST_LOCALES as readonly string[]).includes(m.language);

/** Each message classified once. */
/** The verdict of a message classifyAll read. */
function verdictOf(verdicts: ReadonlyMap<string, MessageClassification>, m: Labelled): MessageClassification {
  const verdict = verdicts.get(m.id);
  if (!verdict) throw new Error(`message ${m.id} was not classified`);
  return verdict;
}

export function classifyAll(set: readonly Labelled[], detector: LanguageDetector): Map<string, MessageClassification> {
  return new Map(set.map((m) => [m.id, classifyMessage({ subject: m.subject, text: m.text, from: m.from, headers: m.headers }, detector)]));
}

export interface RequestFigures {
  messages: number;
  requests: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export function requestFigures(messages: readonly Labelled[], verdicts: ReadonlyMap<string, MessageClassification>): RequestFigures {
  const f: RequestFigures = { messages: messages.length, requests: 0, truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (const m of messages) {
    const isRequest = verdictOf(verdicts, m).isRequest;
    if (m.request) f.requests++;
    if (isRequest && m.request) f.truePositives++;
    if (isRequest && !m.request) f.falsePositives++;
    if (!isRequest && m.request) f.falseNegatives++;
  }
  return f;
}

/** Precision of nothing found is 1 (no false positive was made); recall of no request is 1. */
export const precision = (f: RequestFigures): number => (f.truePositives + f.falsePositives === 0 ? 1 : f.truePositives / (f.truePositives + f.falsePositives));
export const recall = (f: RequestFigures): number => (f.requests === 0 ? 1 : f.truePositives / f.requests);

/** What the primary type of a labelled request was read as: a type, `triage` (a request with no type), or `none` (no request). */
export type ReadAs = RequestType | 'triage' | 'none';
export function readAs(m: Labelled, verdicts: ReadonlyMap<string, MessageClassification>): ReadAs {
  const c = verdictOf(verdicts, m);
  if (!c.isRequest) return 'none';
  return c.reading.requestType ?? 'triage';
}

/** Requests in a language intake reads whose primary type was read right (a triage counts as wrong), of all such requests. */
export function typeFigures(messages: readonly Labelled[], verdicts: ReadonlyMap<string, MessageClassification>): { right: number; of: number } {
  const requests = messages.filter((m) => m.request && isSupported(m));
  return { right: requests.filter((m) => readAs(m, verdicts) === m.type).length, of: requests.length };
}

export function languageFigures(messages: readonly Labelled[], verdicts: ReadonlyMap<string, MessageClassification>): { right: number; of: number } {
  return { right: messages.filter((m) => verdictOf(verdicts, m).reading.language === m.language).length, of: messages.length };
}

const two = (x: number): string => x.toFixed(2);
const share = ({ right, of }: { right: number; of: number }): string => (of === 0 ? '–' : two(right / of));

/** The per-language table of docs/intake.md ("Requests found, per language"). */
export function languageTable(set: readonly Labelled[], verdicts: ReadonlyMap<string, MessageClassification>): string[][] {
  const row = (label: string, all: readonly Labelled[]): string[] => {
    const held = all.filter((m) => m.heldOut);
    const [fa, fh] = [requestFigures(all, verdicts), requestFigures(held, verdicts)];
    return [
      label,
      `${all.length} (${held.length})`,
      `${fa.requests} (${fh.requests})`,
      two(precision(fa)),
      two(recall(fa)),
      two(precision(fh)),
      two(recall(fh)),
      share(typeFigures(all, verdicts)),
      share(typeFigures(held, verdicts)),
      share(languageFigures(held, verdicts)),
    ];
  };
  return [
    ...LANGUAGE_FILES.map((file) =>
      row(
        file,
        set.filter((m) => m.file === file),
      ),
    ),
    row('all', set),
  ];
}

/** Precision and recall of each primary type over the requests in a language intake reads. */
export function typeTable(set: readonly Labelled[], verdicts: ReadonlyMap<string, MessageClassification>): string[][] {
  const figures = (messages: readonly Labelled[], type: RequestType) => {
    const requests = messages.filter((m) => m.request && isSupported(m));
    const labelled = requests.filter((m) => m.type === type);
    const read = requests.filter((m) => readAs(m, verdicts) === type);
    const right = labelled.filter((m) => readAs(m, verdicts) === type).length;
    return { labelled: labelled.length, precision: read.length === 0 ? '–' : two(right / read.length), recall: labelled.length === 0 ? '–' : two(right / labelled.length) };
  };
  return REQUEST_TYPES.map((type) => {
    const [a, h] = [
      figures(set, type),
      figures(
        set.filter((m) => m.heldOut),
        type,
      ),
    ];
    return [type, String(a.labelled), a.precision, a.recall, String(h.labelled), h.precision, h.recall];
  });
}

export const READ_AS_COLUMNS: readonly ReadAs[] = [...REQUEST_TYPES, 'triage', 'none'];

/** Held-out requests in a language intake reads: labelled type (rows) against the type read (columns). */
export function confusionTable(set: readonly Labelled[], verdicts: ReadonlyMap<string, MessageClassification>): string[][] {
  const held = set.filter((m) => m.heldOut && m.request && isSupported(m));
  return REQUEST_TYPES.map((type) => {
    const of = held.filter((m) => m.type === type);
    return [type, ...READ_AS_COLUMNS.map((col) => String(of.filter((m) => readAs(m, verdicts) === col).length))];
  });
}

/** A table as markdown rows (the header rows are the caller's). */
export const markdownRows = (rows: readonly string[][]): string => rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
