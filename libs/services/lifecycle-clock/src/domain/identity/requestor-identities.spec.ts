import type { RequestDetail } from '@dsar/contracts';
import { maskContact, maskedDetail, requestorIdentitiesOf } from './requestor-identities';

/** The fields of a detail the masking reads; the rest of a detail passes through untouched. */
function detailWith(over: Partial<RequestDetail>): RequestDetail {
  return {
    id: '6f1d2c3b-4a59-4e7d-8c21-0b9a8f7e6d5c',
    jurisdiction: 'DE',
    requestor: { type: 'subject' },
    intakeSource: { channel: 'email', rawText: 'Bitte senden Sie mir eine Kopie meiner Daten.', receivedAt: '2026-05-04T08:00:00Z' },
    authority: null,
    status: 'received',
    ...over,
  } as RequestDetail;
}

const agentRequest = detailWith({
  requestor: { type: 'authorized_agent', name: 'Mila Petrova', email: 'mila.petrova@example.net', phone: '+49 30 5550172', relation: 'sister' },
  intakeSource: {
    channel: 'email',
    rawText: 'I am Mila Petrova, writing for my brother (customer ac-7781204). Answer to mila.petrova@example.net or +49 30 5550172. Milan can confirm.',
    receivedAt: '2026-05-04T08:00:00Z',
    contact: 'mila.petrova@example.net',
    sourceEvidence: [
      { type: 'account_id', reference: 'ac-7781204' },
      { type: 'email_message', reference: 'msg-20260504-1', description: 'The email as received' },
    ],
  },
  authority: {
    status: 'submitted',
    evidenceArtifacts: [
      { type: 'account_id', reference: 'ac-7781204' },
      { type: 'account_id', reference: 'loyalty-550912' },
      { type: 'power_of_attorney', reference: 'docs://poa/2026-118' },
    ],
  },
});

describe("a requestor's identities", () => {
  it('lists the requestor block, the contact and each account id once, and which of them the request has', () => {
    expect(requestorIdentitiesOf(agentRequest)).toEqual({
      requestor: agentRequest.requestor,
      contact: 'mila.petrova@example.net',
      accountIds: ['ac-7781204', 'loyalty-550912'],
      fields: ['name', 'email', 'phone', 'contact', 'account_id'],
    });
  });

  it('has the data subject as requestor and no field when intake recorded no identity', () => {
    expect(requestorIdentitiesOf({ jurisdiction: 'FR', requestor: null, intakeSource: {} })).toEqual({ requestor: { type: 'subject' }, contact: null, accountIds: [], fields: [] });
  });
});

describe('the masked detail', () => {
  const masked = maskedDetail(agentRequest);

  it('masks the name, email and phone of the requestor, and keeps its type and relation', () => {
    expect(masked.requestor).toEqual({ type: 'authorized_agent', name: 'M*** P***', email: 'm***@example.net', phone: '+49 3* ****172', relation: 'sister' });
  });

  it('masks the contact and the account ids of the evidence, and leaves other evidence as it is', () => {
    expect(masked.intakeSource.contact).toBe('m***@example.net');
    expect(masked.intakeSource.sourceEvidence).toEqual([
      { type: 'account_id', reference: 'ac***04' },
      { type: 'email_message', reference: 'msg-20260504-1', description: 'The email as received' },
    ]);
    expect(masked.authority?.evidenceArtifacts.map((e) => e.reference)).toEqual(['ac***04', 'lo***12', 'docs://poa/2026-118']);
    expect(masked.authority?.status).toBe('submitted');
  });

  it('masks each identity where the intake text repeats it whole, and no part of another word', () => {
    expect(masked.intakeSource.rawText).toBe('I am M*** P***, writing for my brother (customer ac***04). Answer to m***@example.net or +49 3* ****172. Milan can confirm.');
    const shortName = maskedDetail(
      detailWith({ requestor: { type: 'subject', name: 'Li' }, intakeSource: { ...agentRequest.intakeSource, contact: undefined, rawText: 'Li here: please delete my Linkedin-style profile. — Li' } }),
    );
    expect(shortName.intakeSource.rawText).toBe('L*** here: please delete my Linkedin-style profile. — L***');
  });

  it('carries no identity in clear anywhere in the answer', () => {
    const text = JSON.stringify(masked);
    for (const clear of ['Mila Petrova', 'mila.petrova', '5550172', 'ac-7781204', 'loyalty-550912']) expect(text).not.toContain(clear);
    expect({ ...masked, requestor: agentRequest.requestor, intakeSource: agentRequest.intakeSource, authority: agentRequest.authority }).toEqual(agentRequest);
  });

  it('changes nothing of a request without identities', () => {
    const plain = detailWith({});
    expect(maskedDetail(plain)).toEqual(plain);
  });
});

describe('a masked contact', () => {
  it('is masked as an email address, a phone number (national ones in the country of the jurisdiction) or any other handle', () => {
    expect(maskContact(' lea@example.org ', 'DE')).toBe('l***@example.org');
    expect(maskContact('030 5550172', 'DE')).toBe('0** ****172');
    expect(maskContact('+33 6 12 34 56 78', 'FR')).toBe('+33 6 ** ** *6 78');
    expect(maskContact('slack://user?team=T0A1&id=U0B2C3', 'DE')).toBe('sl***C3');
  });
});
