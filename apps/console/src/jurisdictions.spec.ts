import { jurisdictionsOf } from './jurisdictions';

describe('the jurisdictions of the policy packs', () => {
  it('lists every code of every pack once, in capitals, sorted', () => {
    const packs = [
      { jurisdiction: 'EU', jurisdictions: ['EU', 'DE', 'FR'] },
      { jurisdiction: 'US-CA', jurisdictions: ['US-CA'] },
      { jurisdiction: 'de', jurisdictions: ['de'] },
      { jurisdiction: 'GB', jurisdictions: [] },
    ];
    expect(jurisdictionsOf(packs)).toEqual(['DE', 'EU', 'FR', 'GB', 'US-CA']);
  });
});
