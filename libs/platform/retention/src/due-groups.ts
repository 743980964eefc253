import { BatchPacer } from '@dsar/platform/scheduling';
import type { RetentionGroup } from './retention-purger';

/**
 * Collects up to `limit` due groups from candidates read a page at a time
 * (keyset paging by the candidates' `key`), keeping those `toGroup` turns into
 * a group: a candidate of an open request, or one whose request closed too
 * recently, is passed over without stopping the walk. A page is a batch that
 * yields (BatchPacer, ADR 0043): a walk over many candidates leaves the
 * requests their turns.
 */
export async function collectDue<Row extends { key: string }>(
  page: (afterKey: string | undefined, size: number) => Promise<Row[]>,
  toGroup: (row: Row) => Promise<RetentionGroup | null>,
  limit: number,
  pageSize = 500,
): Promise<RetentionGroup[]> {
  const due: RetentionGroup[] = [];
  const pacer = new BatchPacer();
  let after: string | undefined;
  for (;;) {
    const rows = await page(after, pageSize);
    for (const row of rows) {
      const group = await toGroup(row);
      if (group) due.push(group);
      if (due.length >= limit) return due;
    }
    if (rows.length < pageSize) return due;
    after = rows[rows.length - 1].key;
    await pacer.pause();
  }
}
