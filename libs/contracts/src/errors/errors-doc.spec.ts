import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ErrorCatalog } from './error-catalog';

/**
 * docs/errors.md lists the catalog as a table under "## Catalog"; every
 * entry of ErrorCatalog must be a row of it with the same code, name, HTTP
 * status and retry flag, so clients reading the docs see the codes they get.
 */

const DOC = path.resolve(__dirname, '../../../../docs/errors.md');
const HEADING = '## Catalog';

interface DocRow {
  code: string;
  name: string;
  status: string;
  retry: string;
}

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
const unquote = (cell: string): string => cell.replace(/^`(.*)`$/, '$1');

function catalogTable(markdown: string): DocRow[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === HEADING);
  if (start < 0) throw new Error(`docs/errors.md has no "${HEADING}" heading`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  const section = lines.slice(start + 1, end < 0 ? undefined : end);
  const first = section.findIndex((l) => l.trim().startsWith('|'));
  if (first < 0) throw new Error(`docs/errors.md has no table under "${HEADING}"`);
  const table: string[][] = [];
  for (const l of section.slice(first)) {
    if (!l.trim().startsWith('|')) break;
    table.push(cellsOf(l));
  }
  const [header, , ...rows] = table;
  if (header.slice(0, 4).join('|') !== 'Code|Name|HTTP|Retry') {
    throw new Error(`the catalog table's columns must start with Code | Name | HTTP | Retry, not ${header.join(' | ')}`);
  }
  return rows.map(([code, name, status, retry]) => ({ code: unquote(code), name: unquote(name), status, retry }));
}

describe('docs/errors.md catalog table', () => {
  const rows = catalogTable(readFileSync(DOC, 'utf8'));
  const entries = Object.values(ErrorCatalog);

  it('has a row for every catalog entry with its code, name, status and retry flag', () => {
    const expected = entries.map((d) => ({ code: d.code, name: d.name, status: String(d.status), retry: d.retryable ? 'yes' : 'no' }));
    const missingOrWrong = expected.filter((e) => !rows.some((r) => r.code === e.code && r.name === e.name && r.status === e.status && r.retry === e.retry));
    expect(missingOrWrong).toEqual([]);
  });

  it('lists no code the catalog does not have, each once, in code order', () => {
    const codes = rows.map((r) => r.code);
    expect(codes.filter((c) => !entries.some((d) => d.code === c))).toEqual([]);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual([...codes].sort((a, b) => Number(a.slice(7)) - Number(b.slice(7))));
  });
});
