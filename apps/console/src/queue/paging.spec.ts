import { countText, hasNextPage } from './paging';

describe("the queue's count and paging", () => {
  it('counts an exact total', () => {
    expect(countText({ offset: 0, count: 25, limit: 25, total: 312, totalExact: true }, 'en-US')).toBe('1–25 of 312');
    expect(countText({ offset: 300, count: 12, limit: 25, total: 312, totalExact: true }, 'en-US')).toBe('301–312 of 312');
  });

  it('says "about" when the total is an estimate', () => {
    expect(countText({ offset: 25, count: 25, limit: 25, total: 10_000, totalExact: false }, 'en-US')).toBe('26–50 of about 10,000');
  });

  it('says when nothing matches, and when a page is past the end', () => {
    expect(countText({ offset: 0, count: 0, limit: 25, total: 0, totalExact: true })).toBe('No requests match these filters');
    expect(countText({ offset: 50, count: 0, limit: 25, total: 3, totalExact: true })).toBe('No requests on this page');
  });

  it('never says fewer in total than the page shows', () => {
    expect(countText({ offset: 0, count: 3, limit: 25, total: 2, totalExact: true }, 'en-US')).toBe('1–3 of 3');
  });

  it('offers a next page while the total says there are more, or, for an estimate, after a full page', () => {
    expect(hasNextPage({ offset: 0, count: 25, limit: 25, total: 26, totalExact: true })).toBe(true);
    expect(hasNextPage({ offset: 0, count: 25, limit: 25, total: 25, totalExact: true })).toBe(false);
    expect(hasNextPage({ offset: 0, count: 25, limit: 25, total: 5, totalExact: false })).toBe(true);
    expect(hasNextPage({ offset: 0, count: 24, limit: 25, total: 50_000, totalExact: false })).toBe(false);
  });
});
