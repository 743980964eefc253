import type { Writable } from 'node:stream';
import type { stringify } from 'yaml';
import { ApiError, type CliError } from './errors';

/** The YAML printer, the CLI's largest dependency: loaded by Output.create for `--output yaml` only. */
let toYaml: typeof stringify | undefined;

export const OUTPUT_FORMATS = ['json', 'table', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How a command's data looks as a table: the columns to show, by array (`''` for data that is itself an array). */
export interface View {
  columns?: Readonly<Record<string, readonly string[]>>;
  /** The list the data is about (`items` of a queue page): shown as the table, the other fields on one line below it. */
  list?: string;
}

/** Table cells are cut here (a sha256 hash, 71 characters, still fits); `field  value` lines are not cut. */
const MAX_CELL = 72;

/**
 * What a command prints on standard output. `json` and `yaml` print the
 * envelope `{ok: true, data, meta: {command}}` or `{ok: false, error: {code,
 * message, requestId?}, meta: {command}}`; `table` prints the data for people
 * and the error on standard error.
 */
export class Output {
  constructor(
    readonly format: OutputFormat,
    private readonly stdout: Writable,
    private readonly stderr: Writable,
  ) {}

  /** The output of a format, its printer loaded (the constructor alone suits `json` and `table`). */
  static async create(format: OutputFormat, stdout: Writable, stderr: Writable): Promise<Output> {
    if (format === 'yaml') toYaml ??= (await import('yaml')).stringify;
    return new Output(format, stdout, stderr);
  }

  success(command: string, data: unknown, view: View = {}): void {
    if (this.format === 'table') this.stdout.write(`${renderHuman(data, view)}\n`);
    else this.write({ ok: true, data, meta: { command } });
  }

  failure(command: string, error: CliError): void {
    // The server's id of the call, to quote when reporting a problem: in the envelope as in the table's line.
    const requestId = error instanceof ApiError ? error.requestId : undefined;
    if (this.format !== 'table') {
      this.write({ ok: false, error: { code: error.code, message: error.message, ...(requestId ? { requestId } : {}) }, meta: { command } });
      return;
    }
    this.stderr.write(`dsar ${command}: ${error.code}: ${error.message}${requestId ? ` (request id ${requestId})` : ''}\n`);
  }

  /** One envelope on one line (`requests watch` without a terminal: JSON Lines). */
  successLine(command: string, data: unknown): void {
    this.stdout.write(`${JSON.stringify({ ok: true, data, meta: { command } })}\n`);
  }

  private write(envelope: object): void {
    if (this.format !== 'yaml') this.stdout.write(`${JSON.stringify(envelope, null, 2)}\n`);
    else if (toYaml) this.stdout.write(toYaml(envelope));
    else throw new Error('Output.create loads the YAML printer');
  }
}

function cell(value: unknown, max = MAX_CELL): string {
  let text: string;
  if (value === null || value === undefined) text = '-';
  else if (typeof value === 'object') text = Array.isArray(value) && value.every((v) => typeof v !== 'object') ? value.join(', ') : JSON.stringify(value);
  else text = String(value);
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Rows of objects as an aligned table; the columns given, or every key in order of appearance. */
export function renderRows(rows: readonly unknown[], columns?: readonly string[]): string {
  if (rows.length === 0) return '(none)';
  const records = rows.map((r) => (typeof r === 'object' && r !== null ? (r as Record<string, unknown>) : { value: r }));
  const names = columns ?? [...new Set(records.flatMap((r) => Object.keys(r)))];
  const table = [names, ...records.map((r) => names.map((n) => cell(r[n])))];
  const widths = names.map((_, i) => Math.max(...table.map((line) => line[i].length)));
  return table.map((line) => line.map((c, i) => (i === line.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

type Flat = { scalars: Array<[string, string]>; tables: Array<[string, unknown[]]> };

function flatten(value: Record<string, unknown>, prefix: string, into: Flat): void {
  for (const [key, v] of Object.entries(value)) {
    const name = prefix + key;
    if (Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null)) into.tables.push([name, v]);
    else if (typeof v === 'object' && v !== null && !Array.isArray(v)) flatten(v as Record<string, unknown>, `${name}.`, into);
    else into.scalars.push([name, Array.isArray(v) && v.length === 0 ? '(none)' : cell(v, Infinity)]);
  }
}

/** Data for people: an array as a table; an object as `field  value` lines, then each list in it as a table. */
export function renderHuman(data: unknown, view: View = {}): string {
  if (data === null || data === undefined) return 'done';
  if (Array.isArray(data)) return renderRows(data, view.columns?.['']);
  if (typeof data !== 'object') return String(data);
  const record = data as Record<string, unknown>;
  if (view.list && Array.isArray(record[view.list])) {
    const rest = Object.entries(record).filter(([k, v]) => k !== view.list && v !== undefined);
    return `${renderRows(record[view.list] as unknown[], view.columns?.[view.list])}\n\n${rest.map(([k, v]) => `${k}: ${cell(v)}`).join('  ')}`;
  }
  const flat: Flat = { scalars: [], tables: [] };
  flatten(data as Record<string, unknown>, '', flat);
  const width = Math.max(0, ...flat.scalars.map(([k]) => k.length));
  const parts: string[] = [];
  if (flat.scalars.length > 0) parts.push(flat.scalars.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'));
  for (const [key, rows] of flat.tables) parts.push(`${key} (${rows.length}):\n${renderRows(rows, view.columns?.[key])}`);
  return parts.join('\n\n');
}
