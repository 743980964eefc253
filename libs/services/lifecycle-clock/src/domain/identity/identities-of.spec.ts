import { ACCOUNT_ID_EVIDENCE_TYPE, identitiesOf, type IdentitySource } from './identities-of';

function request(over: Partial<IdentitySource> = {}): IdentitySource {
  return { jurisdiction: 'DE', requestor: null, intakeSource: {}, authority: null, ...over };
}

describe('the identities of a request', () => {
  it("takes the requestor's email and phone, normalised", () => {
    expect(identitiesOf(request({ requestor: { email: ' Jonas.Brandt@Example.net', phone: '0171 2345678' } }))).toEqual([
      { kind: 'email', value: 'jonas.brandt@example.net' },
      { kind: 'phone', value: '+491712345678' },
    ]);
  });

  it('takes the intake contact as an email when it is one, else as a phone when it is one, else not at all', () => {
    expect(identitiesOf(request({ intakeSource: { contact: 'JONAS@example.net' } }))).toEqual([{ kind: 'email', value: 'jonas@example.net' }]);
    expect(identitiesOf(request({ intakeSource: { contact: '(0171) 234 56 78' } }))).toEqual([{ kind: 'phone', value: '+491712345678' }]);
    expect(identitiesOf(request({ jurisdiction: 'US-TX', intakeSource: { contact: '512-555-0186' } }))).toEqual([{ kind: 'phone', value: '+15125550186' }]);
    for (const contact of ['slack://user?team=T7&id=U9', 'Jonas <jonas@example.net>', 'U024BE7LH', '']) {
      expect({ contact, found: identitiesOf(request({ intakeSource: { contact } })) }).toEqual({ contact, found: [] });
    }
  });

  it('reads a national number only in the country of the jurisdiction', () => {
    expect(identitiesOf(request({ jurisdiction: 'EU', requestor: { phone: '0171 2345678' }, intakeSource: { contact: '0171 2345678' } }))).toEqual([]);
    expect(identitiesOf(request({ jurisdiction: 'EU', requestor: { phone: '+49 171 2345678' } }))).toEqual([{ kind: 'phone', value: '+491712345678' }]);
  });

  it('takes the reference of every account id evidence, at intake and as authority evidence', () => {
    const found = identitiesOf(
      request({
        intakeSource: {
          sourceEvidence: [{ type: ACCOUNT_ID_EVIDENCE_TYPE, reference: ' ACC-9 ' }, { type: 'id_document', reference: 'scan-3' }, { type: ACCOUNT_ID_EVIDENCE_TYPE }],
        },
        authority: {
          evidenceArtifacts: [
            { type: ACCOUNT_ID_EVIDENCE_TYPE, reference: 'acc-9' },
            { type: 'power_of_attorney', reference: 'poa-1' },
          ],
        },
      }),
    );
    expect(found).toEqual([
      { kind: 'account', value: 'ACC-9' },
      { kind: 'account', value: 'acc-9' },
    ]);
  });

  it('lists each identity once, by kind then value, whatever the order of the fields', () => {
    const found = identitiesOf(
      request({
        requestor: { email: 'zoe@example.net', phone: '+49 171 2345678' },
        intakeSource: { contact: 'ZOE@example.net', sourceEvidence: [{ type: ACCOUNT_ID_EVIDENCE_TYPE, reference: 'b-2' }] },
        authority: {
          evidenceArtifacts: [
            { type: ACCOUNT_ID_EVIDENCE_TYPE, reference: 'a-1' },
            { type: ACCOUNT_ID_EVIDENCE_TYPE, reference: 'b-2' },
          ],
        },
      }),
    );
    expect(found).toEqual([
      { kind: 'email', value: 'zoe@example.net' },
      { kind: 'phone', value: '+491712345678' },
      { kind: 'account', value: 'a-1' },
      { kind: 'account', value: 'b-2' },
    ]);
    expect(identitiesOf(request({ requestor: { email: 'ann@example.net' }, intakeSource: { contact: 'bea@example.net' } })).map((i) => i.value)).toEqual(['ann@example.net', 'bea@example.net']);
    expect(identitiesOf(request({ requestor: { email: 'bea@example.net' }, intakeSource: { contact: 'ann@example.net' } })).map((i) => i.value)).toEqual(['ann@example.net', 'bea@example.net']);
  });

  it('finds nothing in a request that names no one', () => {
    expect(identitiesOf(request())).toEqual([]);
    expect(identitiesOf(request({ requestor: { email: 'not an address' }, intakeSource: { sourceEvidence: [{ type: ACCOUNT_ID_EVIDENCE_TYPE, reference: '   ' }] } }))).toEqual([]);
  });
});
