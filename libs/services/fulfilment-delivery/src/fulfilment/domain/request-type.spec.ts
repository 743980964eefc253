import { requireRequestType } from './request-type';

describe('the request type a fan-out, manifest or fulfilment acts on', () => {
  const id = '5d0c2b9e-1f4a-4c3b-9e8d-7a6b5c4d3e2f';

  it("is the request's type when it has one", () => {
    expect(requireRequestType({ id, status: 'in_progress', requestType: 'deletion', triage: null }, 'its fulfilment')).toBe('deletion');
  });

  it('is refused with 409 REQUEST_IN_TRIAGE while the request has none, naming the correction to make', () => {
    const triaged = { id, status: 'received' as const, requestType: null, triage: { reason: 'low_confidence' as const, suggestedType: 'access' as const, confidence: 0.4 } };
    let thrown: unknown;
    try {
      requireRequestType(triaged, 'the fan-out to its data systems');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({
      definition: { name: 'REQUEST_IN_TRIAGE', status: 409 },
      extensions: { triageReason: 'low_confidence', suggestedType: 'access' },
    });
    expect((thrown as Error).message).toContain(`/requests/${id}/corrections`);
  });
});
