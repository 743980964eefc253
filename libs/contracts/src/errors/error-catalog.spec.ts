import { ErrorCatalog, errorByCode } from './error-catalog';

/** Clients key their handling on `code`; a code that changes or repeats breaks them. */
describe('ErrorCatalog', () => {
  const entries = Object.entries(ErrorCatalog);

  it('gives every entry a unique SVC-BE code', () => {
    const codes = entries.map(([, d]) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^SVC-BE-\d{4}$/);
  });

  it('names each entry after its key and gives it an HTTP error status', () => {
    for (const [key, d] of entries) {
      expect(d.name).toBe(key);
      expect(d.status).toBeGreaterThanOrEqual(400);
      expect(d.status).toBeLessThan(600);
      for (const other of d.otherStatuses ?? []) {
        expect(other).toBeGreaterThanOrEqual(400);
        expect(other).toBeLessThan(600);
        expect(other).not.toBe(d.status);
      }
    }
  });

  it('keeps the numbers the interface spec names', () => {
    expect(ErrorCatalog.INTERNAL_ERROR).toMatchObject({ code: 'SVC-BE-1000', status: 500 });
    expect(ErrorCatalog.ROUTE_NOT_FOUND).toMatchObject({ code: 'SVC-BE-1002', status: 404 });
    expect(ErrorCatalog.REQUEST_BODY_INVALID_JSON).toMatchObject({ code: 'SVC-BE-1101', status: 400 });
    expect(ErrorCatalog.PAYLOAD_TOO_LARGE).toMatchObject({ code: 'SVC-BE-1103', status: 413 });
    expect(ErrorCatalog.LIFECYCLE_TRANSITION_DISALLOWED).toMatchObject({ code: 'SVC-BE-1401', status: 409 });
  });

  it('finds an entry by its code', () => {
    expect(errorByCode('SVC-BE-1401')).toBe(ErrorCatalog.LIFECYCLE_TRANSITION_DISALLOWED);
    expect(errorByCode('SVC-BE-9999')).toBeUndefined();
  });
});
