import { assertBlobKey, assertBlobPrefix, isBlobKey, tenantIdOfSegment, tenantSegment } from './blob-key';
import { InvalidKeyError } from './errors';
import { INVALID_BLOB_KEYS } from './testing/blob-store.contract';

describe('blob keys', () => {
  it('refuses what could leave the root or differ only in case', () => {
    for (const key of INVALID_BLOB_KEYS) expect(() => assertBlobKey(key)).toThrow(InvalidKeyError);
    expect(isBlobKey('data/default/verification/1b4e28ba-2fa1-11d2-883f-0016d3cca427/evidence-1')).toBe(true);
  });

  it('quotes the key in messages, so control characters cannot forge a log line', () => {
    expect(() => assertBlobKey('a\nb')).toThrow('"a\\nb"');
  });

  it('takes prefixes that end with /', () => {
    expect(() => assertBlobPrefix('a/b/')).not.toThrow();
    expect(() => assertBlobPrefix('a/b')).toThrow(InvalidKeyError);
    expect(() => assertBlobPrefix('')).toThrow(InvalidKeyError);
    expect(() => assertBlobPrefix('', { allowEmpty: true })).not.toThrow();
    expect(() => assertBlobPrefix('../')).toThrow(InvalidKeyError);
  });
});

describe('tenantSegment', () => {
  it('keeps a plain id readable and escapes the rest one-to-one', () => {
    expect(tenantSegment('default')).toBe('default');
    expect(tenantSegment('tenant_01-eu')).toBe('tenant_01-eu');
    expect(tenantSegment('Acme.EU')).toBe('.41cme.2e.45.55');
    expect(tenantSegment('a b/c')).toBe('a.20b.2fc');
    expect(tenantSegment('..')).toBe('.2e.2e');
  });

  it('never maps two ids to one segment, and always to a valid key part', () => {
    const ids = ['a', 'A', 'a.', '.a', 'a.2e', 'a..', 'x'.repeat(256), 'X'.repeat(256), 'x'.repeat(255), `${'y'.repeat(40)}.${'z'.repeat(40)}`, '~', '%41'];
    const segments = ids.map(tenantSegment);
    expect(new Set(segments).size).toBe(ids.length);
    for (const segment of segments) {
      expect(isBlobKey(segment)).toBe(true);
      expect(isBlobKey(`${segment}.key`)).toBe(true);
      expect(segment.length).toBeLessThanOrEqual(100);
    }
    expect(tenantSegment('X'.repeat(256))).toMatch(/^\.h[0-9a-f]{64}$/);
  });

  it('is reversed by tenantIdOfSegment, but for the hash of a long id', () => {
    for (const id of ['default', 'tenant_01-eu', 'Acme.EU', 'a b/c', '..', '~', '%41', 'x'.repeat(100), `${'y'.repeat(40)}.${'z'.repeat(40)}`]) {
      expect(tenantIdOfSegment(tenantSegment(id))).toBe(id);
    }
    expect(tenantIdOfSegment(tenantSegment('X'.repeat(256)))).toBeUndefined();
    // Segments tenantSegment never makes: a plain character escaped, a bad escape, a non-printable byte.
    for (const segment of ['.61', '.4', '.zz', 'a.', '.00', '.20a', '']) expect(tenantIdOfSegment(segment)).toBeUndefined();
  });

  it('refuses ids the gateway would not pass on', () => {
    for (const id of ['', ' padded', 'padded ', 'tab\t', 'caf\u00e9', 'x'.repeat(257)]) expect(() => tenantSegment(id)).toThrow(InvalidKeyError);
  });
});
