import { manifestStateWords, reviewable, reviewWords } from './manifest';

describe('the manifest in words', () => {
  it('says when there is no manifest, and its state and version otherwise', () => {
    expect(manifestStateWords({ version: 0, validationState: null })).toBe('No manifest yet');
    expect(manifestStateWords({ version: 3, validationState: 'pending' })).toBe('Waiting for review (version 3)');
    expect(manifestStateWords({ version: 2, validationState: 'approved' })).toBe('Approved (version 2)');
  });

  it('says who reviewed which version, and when the review no longer holds', () => {
    expect(reviewWords(null)).toBeNull();
    const review = { action: 'approved' as const, by: 'jwt:grace', at: '2025-01-01T00:00:00Z', comment: null, version: 2, outdated: false };
    expect(reviewWords(review)).toBe('Approved by jwt:grace (version 2)');
    expect(reviewWords({ ...review, action: 'rejected', outdated: true })).toBe('Rejected by jwt:grace (version 2, since changed: review it again)');
  });

  it('offers a review only for a manifest waiting for one', () => {
    expect(reviewable({ version: 0, validationState: null })).toBe(false);
    expect(reviewable({ version: 1, validationState: 'pending' })).toBe(true);
    expect(reviewable({ version: 1, validationState: 'approved' })).toBe(false);
  });
});
