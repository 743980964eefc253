import {
  artifactContentTypeOf,
  artifactTitleOf,
  artifactTypeOf,
  fourEyesFor,
  fulfilmentBlocker,
  fulfilmentKey,
  mayReview,
  mergeCategories,
  needsManifest,
  redactionReasonOf,
  staleReview,
} from './manifest-rules';

describe('manifest rules', () => {
  describe('which requests need a manifest', () => {
    it('access and portability hand data out; the other types do not', () => {
      expect(needsManifest('access')).toBe(true);
      expect(needsManifest('portability')).toBe(true);
      for (const type of ['deletion', 'rectification', 'restriction', 'objection', 'opt_out'] as const) expect(needsManifest(type)).toBe(false);
    });
  });

  describe('when a request may be fulfilled', () => {
    it('with an approved manifest, whatever its type', () => {
      expect(fulfilmentBlocker({ requestType: 'access', manifestVersion: 3, validationState: 'approved' })).toBeNull();
      expect(fulfilmentBlocker({ requestType: 'deletion', manifestVersion: 1, validationState: 'approved' })).toBeNull();
    });

    it('not while a manifest exists and is pending or rejected, whatever the type', () => {
      expect(fulfilmentBlocker({ requestType: 'access', manifestVersion: 2, validationState: 'pending' })).toMatch(/version 2\) is pending/);
      expect(fulfilmentBlocker({ requestType: 'deletion', manifestVersion: 1, validationState: 'rejected' })).toMatch(/is rejected/);
    });

    it('without a manifest only when the type hands no data out', () => {
      expect(fulfilmentBlocker({ requestType: 'deletion', manifestVersion: 0, validationState: null })).toBeNull();
      expect(fulfilmentBlocker({ requestType: 'opt_out', manifestVersion: 0, validationState: null })).toBeNull();
      expect(fulfilmentBlocker({ requestType: 'access', manifestVersion: 0, validationState: null })).toMatch(/has none/);
      expect(fulfilmentBlocker({ requestType: 'portability', manifestVersion: 0, validationState: null })).toMatch(/has none/);
    });
  });

  describe('four eyes', () => {
    const settings = { fourEyes: true, tenants: { relaxed: { fourEyes: false }, strict: { fourEyes: true }, unset: {} } };

    it("takes the tenant's override, else the service setting", () => {
      expect(fourEyesFor(settings, 'relaxed')).toBe(false);
      expect(fourEyesFor(settings, 'strict')).toBe(true);
      expect(fourEyesFor(settings, 'unset')).toBe(true);
      expect(fourEyesFor(settings, 'other')).toBe(true);
      expect(fourEyesFor({ fourEyes: false, tenants: { strict: { fourEyes: true } } }, 'strict')).toBe(true);
      expect(fourEyesFor({ fourEyes: false, tenants: {} }, 'other')).toBe(false);
    });

    it('keeps every author of the manifest from reviewing it, not only the last one, and no one else', () => {
      expect(mayReview(true, ['key:alice'], 'key:alice')).toBe(false);
      expect(mayReview(true, ['key:alice', 'key:bob'], 'key:alice')).toBe(false);
      expect(mayReview(true, ['key:alice', 'key:bob'], 'key:bob')).toBe(false);
      expect(mayReview(true, ['key:alice', 'key:bob'], 'key:carol')).toBe(true);
      expect(mayReview(true, [], 'key:alice')).toBe(true);
      expect(mayReview(false, ['key:alice'], 'key:alice')).toBe(true);
    });

    it('records a review only on the version the reviewer names, or on the current one when none is named', () => {
      expect(staleReview(undefined, 3)).toBeNull();
      expect(staleReview(3, 3)).toBeNull();
      expect(staleReview(2, 3)).toMatch(/changed after version 2: it is at version 3/);
      expect(staleReview(4, 3)).toMatch(/no version 4/);
    });
  });

  it('derives the fulfilment key from the manifest version and the round', () => {
    const id = '0b9f2f4e-3c1d-4e7a-9a0b-5a2f8c7d6e10';
    expect(fulfilmentKey(id, 3, 1)).toBe(`fulfilment:${id}:v3:1`);
    expect(fulfilmentKey(id, 3, 2)).not.toBe(fulfilmentKey(id, 3, 1));
    expect(fulfilmentKey(id, 4, 1)).not.toBe(fulfilmentKey(id, 3, 1));
  });

  describe('what an upload declares', () => {
    it('the type: `other` by default, one of the list, nothing else', () => {
      expect(artifactTypeOf(undefined)).toBe('other');
      expect(artifactTypeOf('  ')).toBe('other');
      expect(artifactTypeOf('profile_data')).toBe('profile_data');
      expect(artifactTypeOf(' audit_logs ')).toBe('audit_logs');
      expect(artifactTypeOf('photos')).toBeUndefined();
      expect(artifactTypeOf('Profile_Data')).toBeUndefined();
    });

    it('the content type: essence lower-cased, a charset kept, anything else dropped', () => {
      expect(artifactContentTypeOf('Application/JSON')).toBe('application/json');
      expect(artifactContentTypeOf('text/csv; charset=UTF-8')).toBe('text/csv; charset=utf-8');
      expect(artifactContentTypeOf('text/csv; header=present')).toBe('text/csv');
      expect(artifactContentTypeOf('json')).toBeUndefined();
      expect(artifactContentTypeOf('text/html\r\nX-Evil: 1')).toBeUndefined();
    });

    it('the title: URL-decoded, the filename by default, refused with control characters or when too long', () => {
      expect(artifactTitleOf(undefined, 'export.json')).toBe('export.json');
      expect(artifactTitleOf('   ', 'export.json')).toBe('export.json');
      expect(artifactTitleOf(encodeURIComponent(' Profil — Jürgen '), 'x')).toBe('Profil — Jürgen');
      expect(() => artifactTitleOf('%E0%A4%A', 'x')).toThrow(/percent-encoding/);
      expect(() => artifactTitleOf('a%00b', 'x')).toThrow(/control characters/);
      expect(() => artifactTitleOf(encodeURIComponent('txt\u202Eexe'), 'x')).toThrow(/bidirectional/);
      expect(artifactTitleOf('é'.repeat(300), 'x')).toHaveLength(300);
      expect(() => artifactTitleOf('a'.repeat(301), 'x')).toThrow(/300 characters/);
    });

    it("reads a replacement's redaction reason like a title: decoded and trimmed, null when absent, refused when unsafe or over 500 characters", () => {
      expect(redactionReasonOf(undefined)).toBeNull();
      expect(redactionReasonOf('  ')).toBeNull();
      expect(redactionReasonOf('%20%20')).toBeNull();
      expect(redactionReasonOf(encodeURIComponent(' Drittnamen geschwärzt (Art. 15(4)) '))).toBe('Drittnamen geschwärzt (Art. 15(4))');
      expect(() => redactionReasonOf('%E0%A4%A')).toThrow(/percent-encoding/);
      expect(() => redactionReasonOf('a%0Ab')).toThrow(/control characters/);
      expect(() => redactionReasonOf(encodeURIComponent('a\u202Eb'))).toThrow(/bidirectional/);
      expect(redactionReasonOf('é'.repeat(500))).toHaveLength(500);
      expect(() => redactionReasonOf('a'.repeat(501))).toThrow(/500 characters/);
    });
  });

  it('merges category lists: each once, trimmed, in the order first seen', () => {
    expect(mergeCategories(['contact', ' bank '], ['bank', 'orders', ''], [])).toEqual(['contact', 'bank', 'orders']);
    expect(mergeCategories()).toEqual([]);
  });
});
