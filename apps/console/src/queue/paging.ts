/** The count line of the queue ("1–25 of 312", "26–50 of about 12,000") and whether there is a next page. */
export interface PageInfo {
  offset: number;
  /** Items on this page. */
  count: number;
  limit: number;
  total: number;
  /** False when the API counted `total` as an estimate. */
  totalExact: boolean;
}

export function countText(page: PageInfo, locale?: string): string {
  const n = (value: number) => value.toLocaleString(locale);
  if (page.count === 0) return page.offset > 0 ? 'No requests on this page' : 'No requests match these filters';
  const range = `${n(page.offset + 1)}–${n(page.offset + page.count)}`;
  if (page.totalExact) return `${range} of ${n(Math.max(page.total, page.offset + page.count))}`;
  return `${range} of about ${n(page.total)}`;
}

export function hasNextPage(page: PageInfo): boolean {
  // An estimated total may be off either way: a full page says there may be more.
  if (!page.totalExact) return page.count >= page.limit;
  return page.offset + page.count < page.total;
}
