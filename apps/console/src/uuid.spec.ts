import { randomUuid } from './uuid';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the Idempotency-Key of a POST', () => {
  it("is the platform's random UUID where there is one", () => {
    expect(randomUuid({ getRandomValues: (a) => a, randomUUID: () => '11111111-2222-4333-8444-555555555555' })).toBe('11111111-2222-4333-8444-555555555555');
  });

  it('is a version 4 UUID made of random bytes where there is none (plain http)', () => {
    const bytes = { getRandomValues: <T extends ArrayBufferView | null>(a: T) => crypto.getRandomValues(a as unknown as Uint8Array) as unknown as T };
    const keys = new Set(Array.from({ length: 100 }, () => randomUuid(bytes)));
    expect(keys.size).toBe(100);
    for (const key of keys) expect(key).toMatch(V4);
  });

  it('sets the version and variant bits whatever the bytes', () => {
    expect(randomUuid({ getRandomValues: <T extends ArrayBufferView | null>(a: T) => (a as unknown as Uint8Array).fill(0xff) as unknown as T })).toBe('ffffffff-ffff-4fff-bfff-ffffffffffff');
    expect(randomUuid({ getRandomValues: <T extends ArrayBufferView | null>(a: T) => (a as unknown as Uint8Array).fill(0) as unknown as T })).toBe('00000000-0000-4000-8000-000000000000');
  });
});
