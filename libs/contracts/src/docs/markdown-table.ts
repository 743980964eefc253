import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Reads the first table under a `##` heading of a document in docs/, for the
 * tests that keep the docs equal to the code (roles matrix, error catalog).
 */
export interface MarkdownTable {
  header: string[];
  /** Body rows, the delimiter row dropped; cells trimmed, backticks kept. */
  rows: string[][];
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

/** A cell without its surrounding backticks. */
export const unquote = (cell: string): string => cell.replace(/^`(.*)`$/, '$1');

/** `doc` is a path under docs/, e.g. `errors.md`. */
export function markdownTableUnder(doc: string, heading: string): MarkdownTable {
  const lines = readFileSync(path.resolve(__dirname, '../../../../docs', doc), 'utf8').split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`docs/${doc} has no "${heading}" heading`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const first = section.findIndex((l) => l.trim().startsWith('|'));
  if (first < 0) throw new Error(`docs/${doc} has no table under "${heading}"`);
  const table: string[][] = [];
  for (const l of section.slice(first)) {
    if (!l.trim().startsWith('|')) break;
    table.push(cellsOf(l));
  }
  const [header, delimiter, ...rows] = table;
  if (!delimiter?.every((c) => /^:?-{3,}:?$/.test(c))) throw new Error(`the table under "${heading}" in docs/${doc} has no delimiter row`);
  return { header, rows };
}
