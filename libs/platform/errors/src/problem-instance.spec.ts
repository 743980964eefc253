import { instanceOf } from './problem-json.filter';

describe("a problem's instance", () => {
  it('keeps the path and the query, without the value of a parameter holding an identity', () => {
    expect(instanceOf('/api/v1/requests?identity=ada%40example.org&identityKind=fax')).toBe('/api/v1/requests?identity=[REDACTED]&identityKind=fax');
    expect(instanceOf('/api/v1/requests?status=received&identity=+49301234567')).toBe('/api/v1/requests?status=received&identity=[REDACTED]');
    expect(instanceOf('/api/v1/requests?status=received')).toBe('/api/v1/requests?status=received');
    expect(instanceOf('/api/v1/requests/123')).toBe('/api/v1/requests/123');
  });
});
