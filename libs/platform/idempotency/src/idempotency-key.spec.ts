import { IDEMPOTENCY_KEY_PATTERN } from '@dsar/contracts';
import { ProblemError } from '@dsar/platform/errors';
import { parseIdempotencyKey, requestFingerprint, streamedBodyFingerprint, streamedFingerprintParts } from './idempotency-key';

describe('parseIdempotencyKey', () => {
  it('accepts a structured-field string and a bare token alike', () => {
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(parseIdempotencyKey('order-42')).toBe('order-42');
    expect(parseIdempotencyKey(undefined)).toBeUndefined();
  });

  it.each([[''], ['""'], ['x'.repeat(256)], ['has space'], ['quote"inside'], ['naïve']])('refuses %j with IDEMPOTENCY_KEY_INVALID', (value) => {
    expect(() => parseIdempotencyKey(value)).toThrow(ProblemError);
    try {
      parseIdempotencyKey(value);
    } catch (e) {
      expect((e as ProblemError).definition.code).toBe('SVC-BE-1105');
    }
  });

  it('refuses several headers', () => {
    expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(/one Idempotency-Key/);
  });
});

describe('requestFingerprint', () => {
  it('ignores key order and whitespace of the body', () => {
    expect(requestFingerprint('POST', '/requests', { a: 1, b: { c: [1, 2] } })).toBe(requestFingerprint('post', '/requests', JSON.parse('{ "b": {"c":[1,2]}, "a": 1 }')));
  });

  it('differs by method, path and body', () => {
    const base = requestFingerprint('POST', '/requests', { a: 1 });
    expect(requestFingerprint('PUT', '/requests', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/requests/capture', { a: 1 })).not.toBe(base);
    expect(requestFingerprint('POST', '/requests', { a: 2 })).not.toBe(base);
    expect(base).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('the published Idempotency-Key pattern', () => {
  it('admits exactly the keys the gateway takes', () => {
    const samples = [
      'order-42',
      '"order-42"',
      'a',
      'x'.repeat(255),
      `"${'x'.repeat(255)}"`,
      "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
      '',
      '""',
      '"',
      'x'.repeat(256),
      'has space',
      'tab\there',
      'quote"inside',
      '"open',
      'close"',
      'naïve',
      'nul\u0000',
    ];
    for (const value of samples) {
      let accepted = true;
      try {
        parseIdempotencyKey(value);
      } catch {
        accepted = false;
      }
      expect([value, IDEMPOTENCY_KEY_PATTERN.test(value)]).toEqual([value, accepted]);
    }
  });
});

describe('streamedBodyFingerprint', () => {
  const head = requestFingerprint('POST', '/requests/x/manifest/artifact/upload', { upload: { contentType: 'application/octet-stream', contentLength: '3', headers: {} } });

  it("keeps the head, the bytes' digest and their number, and gives back the head and the number", () => {
    const whole = streamedBodyFingerprint(head, 'ab'.repeat(32), 3);
    expect(whole.startsWith(head)).toBe(true);
    expect(streamedFingerprintParts(whole)).toEqual({ head, bytes: 3 });
    expect(streamedBodyFingerprint(head, 'cd'.repeat(32), 3)).not.toBe(whole);
  });

  it('finds no parts in the fingerprint of a JSON request', () => {
    expect(streamedFingerprintParts(head)).toBeUndefined();
  });
});
