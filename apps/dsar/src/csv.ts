/**
 * Reads the CSV files the service writes (libs/platform/http/src/csv.ts): RFC 4180, a record per line ended by CRLF
 * (a lone LF is taken too), a field quoted when it holds a comma, a quote or a line break, a quote inside a quoted
 * field doubled. Every cell passed through spreadsheetSafeCell on the way out: one that starts with `'` held the rest.
 */

/** A record's fields as the file has them, or `malformed` when a quote is out of place or a quoted field never ends. */
export interface CsvRecord {
  /** 1-based: the header is record 1. */
  number: number;
  fields: string[];
  malformed?: string;
}

/** A cell's value as written before spreadsheetSafeCell escaped it. */
export function unescapeCell(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/**
 * The records of a CSV stream, one at a time, in one pass over its characters (memory: one record). Empty lines are
 * skipped; a carriage return outside quotes is part of a line's end. The cells are as the file has them (see
 * unescapeCell).
 */
export async function* csvRecords(chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>): AsyncGenerator<CsvRecord> {
  /** Where in a field the last character left the reader. */
  let state: 'start' | 'unquoted' | 'quoted' | 'quote' | 'closed' = 'start';
  let fields: string[] = [];
  let field = '';
  let malformed: string | undefined;
  let number = 0;
  const decoder = new TextDecoder('utf-8');

  const endField = (): void => {
    fields.push(field);
    field = '';
    state = 'start';
  };
  const endRecord = (): CsvRecord | undefined => {
    endField();
    const empty = fields.length === 1 && fields[0] === '' && malformed === undefined;
    const record = empty ? undefined : { number: ++number, fields, ...(malformed ? { malformed } : {}) };
    fields = [];
    malformed = undefined;
    return record;
  };

  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (const c of text) {
      if (state === 'quoted') {
        if (c === '"') state = 'quote';
        else field += c;
        continue;
      }
      if (state === 'quote') {
        // A doubled quote is one quote of the field; any other character follows the closing quote.
        if (c === '"') {
          field += c;
          state = 'quoted';
          continue;
        }
        state = 'closed';
      }
      if (c === ',') endField();
      else if (c === '\n') {
        const record = endRecord();
        if (record) yield record;
      } else if (c === '\r') continue;
      else if (state === 'closed') malformed ??= 'text after the closing quote of a field';
      else if (c === '"' && state === 'start') state = 'quoted';
      else {
        if (c === '"') malformed ??= 'a quote inside an unquoted field';
        field += c;
        state = 'unquoted';
      }
    }
  }
  if (state === 'quoted') malformed ??= 'a quoted field that never ends';
  const last = endRecord();
  if (last) yield last;
}
