import { identitiesOf, identitySourceOfDetail, revealPath } from './identities';

describe("the requestor's identities on the request page", () => {
  // A detail as `requestor=masked` answers it: the API masked every identity.
  const masked = {
    requestor: { type: 'subject' as const, name: 'J*** R***', email: 'j***@example.org', phone: '+44 7*** ***123' },
    intakeSource: {
      channel: 'email' as const,
      rawText: 'Please send me my data.',
      receivedAt: '2026-03-01T09:00:00Z',
      contact: 'j***@example.org',
      sourceEvidence: [
        { type: 'account_id', reference: 'ac***89' },
        { type: 'email_message', reference: 'msg-1' },
      ],
    },
    authority: {
      status: 'submitted' as const,
      evidenceArtifacts: [
        { type: 'account_id', reference: 'ac***89' },
        { type: 'account_id', reference: 'cu***42' },
      ],
    },
  };

  it('takes the contact and each account id of the evidence once from a detail', () => {
    expect(identitySourceOfDetail(masked)).toEqual({ requestor: masked.requestor, contact: 'j***@example.org', accountIds: ['ac***89', 'cu***42'] });
    expect(identitySourceOfDetail({ ...masked, intakeSource: { ...masked.intakeSource, contact: undefined, sourceEvidence: undefined }, authority: null })).toEqual({
      requestor: masked.requestor,
      contact: null,
      accountIds: [],
    });
  });

  it('lists name, email, phone and the account ids as the source has them, and a contact that repeats the email once', () => {
    expect(identitiesOf(identitySourceOfDetail(masked))).toEqual([
      { label: 'Name', value: 'J*** R***' },
      { label: 'Email', value: 'j***@example.org' },
      { label: 'Phone', value: '+44 7*** ***123' },
      { label: 'Account id', value: 'ac***89' },
      { label: 'Account id', value: 'cu***42' },
    ]);
  });

  it('lists a revealed requestor in clear, with a contact of its own', () => {
    const revealed = identitiesOf({ requestor: { type: 'authorized_agent', email: 'Jane@Example.org' }, contact: ' jane@example.org', accountIds: [] });
    expect(revealed).toEqual([{ label: 'Email', value: 'Jane@Example.org' }]);
    expect(identitiesOf({ requestor: { type: 'subject', name: 'Jane Roe' }, contact: '+44 7700 900123', accountIds: ['ac12345689'] })).toEqual([
      { label: 'Name', value: 'Jane Roe' },
      { label: 'Contact', value: '+44 7700 900123' },
      { label: 'Account id', value: 'ac12345689' },
    ]);
  });

  it('lists nothing for a requestor without identities', () => {
    expect(identitiesOf({ requestor: { type: 'subject' }, contact: null, accountIds: [] })).toEqual([]);
  });

  it("reveals through the request's route", () => {
    expect(revealPath('6f1d2c3b-4a59-4e7d-8c21-0b9a8f7e6d5c')).toBe('/requests/6f1d2c3b-4a59-4e7d-8c21-0b9a8f7e6d5c/requestor/reveal');
  });
});
