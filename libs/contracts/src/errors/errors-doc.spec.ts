import { markdownTableUnder, unquote } from '../docs/markdown-table';
import { ErrorCatalog, errorStatuses } from './error-catalog';

/**
 * docs/errors.md lists the catalog as a table under "## Catalog"; every
 * entry of ErrorCatalog must be a row of it with the same code, name, HTTP
 * status (and its other statuses: `400, 503`) and retry flag, so clients
 * reading the docs see the codes they get.
 */

interface DocRow {
  code: string;
  name: string;
  status: string;
  retry: string;
}

function catalogTable(): DocRow[] {
  const { header, rows } = markdownTableUnder('errors.md', '## Catalog');
  if (header.slice(0, 4).join('|') !== 'Code|Name|HTTP|Retry') {
    throw new Error(`the catalog table's columns must start with Code | Name | HTTP | Retry, not ${header.join(' | ')}`);
  }
  return rows.map(([code, name, status, retry]) => ({ code: unquote(code), name: unquote(name), status, retry }));
}

describe('docs/errors.md catalog table', () => {
  const rows = catalogTable();
  const entries = Object.values(ErrorCatalog);

  it('has a row for every catalog entry with its code, name, status and retry flag', () => {
    const expected = entries.map((d) => ({ code: d.code, name: d.name, status: errorStatuses(d).join(', '), retry: d.retryable ? 'yes' : 'no' }));
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
