import { isNoCase } from './verification';

describe('the verification case', () => {
  it('tells a request without a case from a failed read', () => {
    expect(isNoCase({ status: 404, title: 'Verification case not found', detail: null, code: 'SVC-BE-1405' })).toBe(true);
    expect(isNoCase({ status: 404, title: 'Not found', detail: null, code: 'SVC-BE-1003' })).toBe(false);
    expect(isNoCase({ status: 500, title: 'The service failed to answer', detail: null, code: null })).toBe(false);
  });
});
