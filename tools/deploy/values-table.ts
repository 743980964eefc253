import { parse } from 'yaml';

/**
 * The chart's values and the table that documents them (charts/dsar/README.md, section `## Values`, one row per leaf
 * key: `| \`a.b.c\` | type | \`default\` | description |`).
 */

/**
 * Every leaf of values.yaml, by dotted path: scalars, lists (a list is one value) and empty maps. A non-empty map is
 * not a leaf: its keys are.
 */
export function valueLeaves(values: unknown, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  if (values !== null && typeof values === 'object' && !Array.isArray(values) && Object.keys(values).length > 0) {
    for (const [k, v] of Object.entries(values)) for (const [p, leaf] of valueLeaves(v, prefix ? `${prefix}.${k}` : k)) leaves.set(p, leaf);
  } else {
    leaves.set(prefix, values);
  }
  return leaves;
}

const sortedKeys = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortedKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
};

/**
 * A value's normalized string form: scalars as text (so `"1000"` and `1000`, `dsar` and `"dsar"` are the same), lists
 * and maps as compact JSON with sorted keys, null and an absent value as `null`.
 */
export function normalizedValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(sortedKeys(value));
  return String(value);
}

/** A table cell's default in the same form: the text inside its backticks, read as YAML (`""` is the empty string). */
export function normalizedCell(cell: string): string {
  const text = cell.trim();
  const code = /^`+([\s\S]*?)`+$/.exec(text);
  const inner = (code ? code[1] : text).replace(/\\\|/g, '|').trim();
  if (inner === '') return '';
  try {
    const parsed: unknown = parse(inner);
    return typeof parsed === 'string' ? parsed : normalizedValue(parsed);
  } catch {
    return inner;
  }
}

/** Splits a Markdown table row into its cells (a `|` inside backticks or escaped as `\|` belongs to the cell). */
export function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let ticks = 0;
  const line = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\' && line[i + 1] === '|') {
      cell += '\\|';
      i++;
    } else if (ch === '`') {
      let run = 0;
      while (line[i + run] === '`') run++;
      cell += '`'.repeat(run);
      i += run - 1;
      ticks = ticks === 0 ? run : ticks === run ? 0 : ticks;
    } else if (ch === '|' && ticks === 0) {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

export interface ValuesRow {
  key: string;
  defaultCell: string;
  line: number;
}

/** The rows of the table under `## Values` (until the next `## ` heading): the key (first column) and the Default column. */
export function valuesTable(readme: string): ValuesRow[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => /^##\s+Values\s*$/.test(l));
  if (start < 0) throw new Error('charts/dsar/README.md has no `## Values` section');
  const rows: ValuesRow[] = [];
  let defaultColumn = -1;
  for (let i = start + 1; i < lines.length && !/^##\s/.test(lines[i]); i++) {
    const line = lines[i];
    if (!line.trim().startsWith('|')) continue;
    const cells = tableCells(line);
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue; // the separator row
    if (defaultColumn < 0) {
      defaultColumn = cells.findIndex((c) => /^default$/i.test(c));
      if (defaultColumn < 0) throw new Error(`the Values table's header has no Default column: ${line}`);
      continue;
    }
    const key = /^`([^`]+)`$/.exec(cells[0])?.[1];
    if (!key) throw new Error(`README.md line ${i + 1}: the first cell is not one \`key\`: ${line}`);
    rows.push({ key, defaultCell: cells[defaultColumn] ?? '', line: i + 1 });
  }
  return rows;
}
