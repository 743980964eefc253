import { REFUSAL_REASONS } from '@dsar/contracts';
import { defaultRefusalNotice } from './refusal-notice';

describe('defaultRefusalNotice', () => {
  it.each(REFUSAL_REASONS.map((r) => [r]))('for %s gives the reason and the right to complain and to a judicial remedy', (reason) => {
    const notice = defaultRefusalNotice(reason, { jurisdictionName: 'Germany', appealAvailable: false });
    expect(notice).toMatch(/^We will not act on your request/);
    expect(notice).toContain('You have the right to lodge a complaint with the data protection supervisory authority responsible for Germany and to seek a judicial remedy.');
    expect(notice).not.toContain('appeal');
  });

  it('states the reason in words', () => {
    expect(defaultRefusalNotice('no_data_held', { jurisdictionName: 'France', appealAvailable: false })).toMatch(/because we hold no personal data about you\./);
    expect(defaultRefusalNotice('identity_not_verified', { jurisdictionName: 'France', appealAvailable: false })).toMatch(/because we could not verify your identity\./);
  });

  it('names the authority a pack names, and the appeal a pack gives', () => {
    const notice = defaultRefusalNotice('excessive', { jurisdictionName: 'California', supervisoryAuthority: 'the California Privacy Protection Agency', appealAvailable: true });
    expect(notice).toContain('lodge a complaint with the California Privacy Protection Agency');
    expect(notice).toMatch(/You may also appeal this decision to us\.$/);
  });
});
