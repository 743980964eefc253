import { identitiesOf } from './identities';

describe("the requestor's identities on the request page", () => {
  it('lists name, email, phone and each account id once, each with its masked form', () => {
    const shown = identitiesOf({
      requestor: { type: 'subject', name: 'Jane Roe', email: 'jane@example.org', phone: '+44 7700 900123' },
      intakeSource: {
        channel: 'email',
        rawText: 'Please send me my data.',
        receivedAt: '2026-03-01T09:00:00Z',
        sourceEvidence: [
          { type: 'account_id', reference: 'ac12345689' },
          { type: 'email_message', reference: 'msg-1' },
        ],
      },
      authority: {
        status: 'submitted',
        evidenceArtifacts: [
          { type: 'account_id', reference: 'ac12345689' },
          { type: 'account_id', reference: 'cust-00042' },
        ],
      },
    });
    expect(shown).toEqual([
      { label: 'Name', value: 'Jane Roe', masked: 'J*** R***' },
      { label: 'Email', value: 'jane@example.org', masked: 'j***@example.org' },
      { label: 'Phone', value: '+44 7700 900123', masked: '+44 7*** ***123' },
      { label: 'Account id', value: 'ac12345689', masked: 'ac***89' },
      { label: 'Account id', value: 'cust-00042', masked: 'cu***42' },
    ]);
  });

  it('lists nothing for a requestor without identities', () => {
    expect(identitiesOf({ requestor: { type: 'subject' }, intakeSource: { channel: 'phone', rawText: 'A call.', receivedAt: '2026-03-01T09:00:00Z' }, authority: null })).toEqual([]);
  });
});
