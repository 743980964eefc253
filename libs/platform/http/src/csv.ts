import { stringify } from 'csv-stringify/sync';

/**
 * First characters that make a spreadsheet read a cell as a formula: `=`, `+`, `-`, `@`, and tab and carriage return,
 * which some spreadsheets drop before looking (OWASP, "CSV Injection"); with their full-width forms, which Apple
 * Numbers turns into the plain ones. The quote itself is escaped too, so that a leading quote always means "escaped"
 * and reading a value back never has to guess.
 */
const ESCAPED_STARTS = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20', "'"]);

/** A cell that a spreadsheet opens as text: one that could start a formula gets a leading `'`. */
export function spreadsheetSafeCell(value: string): string {
  return ESCAPED_STARTS.has(value.charAt(0)) ? `'${value}` : value;
}

/**
 * Every CSV file the service writes: RFC 4180 with CRLF after every record, a field quoted when it holds a comma, a
 * quote or a line break, and every cell passed through spreadsheetSafeCell, an escaped one quoted as well. Reading a
 * value back: a cell that starts with `'` held the rest of it.
 */
export function csvText(rows: readonly (readonly string[])[]): string {
  return stringify(
    rows.map((row) => row.map(spreadsheetSafeCell)),
    { record_delimiter: 'windows', quoted_match: /^'/ },
  );
}
