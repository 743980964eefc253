import { signDelivery, signedDeliveryHeaders, verifyDelivery, WEBHOOK_TOLERANCE_SECONDS, webhookSecretKey } from './standard-webhooks';

/**
 * The test vector of the Standard Webhooks reference libraries
 * (libraries/javascript/src/webhook.test.ts, libraries/go/webhook_test.go):
 * secret, message id, timestamp and payload (with its space) and the expected
 * signature; and their negative cases.
 */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  payload: Buffer.from('{"test": 2432232314}', 'utf8'),
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const key = webhookSecretKey(VECTOR.secret);
const at = Number(VECTOR.timestamp);
const headers = { id: VECTOR.id, timestamp: VECTOR.timestamp, signature: VECTOR.signature };

describe('Standard Webhooks signatures', () => {
  it('decodes the secret after whsec_ from base64: 24 bytes', () => {
    expect(key.length).toBe(24);
  });

  it('signs the vector as published', () => {
    expect(`v1,${signDelivery(key, VECTOR.id, VECTOR.timestamp, VECTOR.payload)}`).toBe(VECTOR.signature);
  });

  it('accepts the vector at its timestamp', () => {
    expect(verifyDelivery([key], headers, VECTOR.payload, at)).toBeUndefined();
  });

  it.each([
    ['the last character changed', 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OA='],
    ['another signature', 'v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc='],
    ['an empty one', 'v1,'],
    ['another version', 'v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
    ['no version', 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE='],
  ])('refuses %s', (_case, signature) => {
    expect(verifyDelivery([key], { ...headers, signature }, VECTOR.payload, at)).toBe('signature_invalid');
  });

  it('refuses another body: one byte more, or the JSON without its space', () => {
    expect(verifyDelivery([key], headers, Buffer.from('{"test": 2432232314} ', 'utf8'), at)).toBe('signature_invalid');
    expect(verifyDelivery([key], headers, Buffer.from('{"test":2432232314}', 'utf8'), at)).toBe('signature_invalid');
  });

  it('refuses another id or timestamp than the signed ones, and another secret', () => {
    expect(verifyDelivery([key], { ...headers, id: 'msg_other' }, VECTOR.payload, at)).toBe('signature_invalid');
    expect(verifyDelivery([key], { ...headers, timestamp: String(at + 1) }, VECTOR.payload, at)).toBe('signature_invalid');
    expect(verifyDelivery([webhookSecretKey(`whsec_${Buffer.alloc(32, 7).toString('base64')}`)], headers, VECTOR.payload, at)).toBe('signature_invalid');
  });

  it('accepts any of several signatures and any of several secrets (rotation)', () => {
    const other = webhookSecretKey(`whsec_${Buffer.alloc(32, 9).toString('base64')}`);
    expect(verifyDelivery([key], { ...headers, signature: `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${VECTOR.signature}` }, VECTOR.payload, at)).toBeUndefined();
    expect(verifyDelivery([other, key], headers, VECTOR.payload, at)).toBeUndefined();
    expect(verifyDelivery([other], headers, VECTOR.payload, at)).toBe('signature_invalid');
  });

  it('takes a timestamp up to 5 minutes either way, not a second more', () => {
    expect(verifyDelivery([key], headers, VECTOR.payload, at + WEBHOOK_TOLERANCE_SECONDS)).toBeUndefined();
    expect(verifyDelivery([key], headers, VECTOR.payload, at - WEBHOOK_TOLERANCE_SECONDS)).toBeUndefined();
    expect(verifyDelivery([key], headers, VECTOR.payload, at + WEBHOOK_TOLERANCE_SECONDS + 1)).toBe('timestamp_out_of_tolerance');
    expect(verifyDelivery([key], headers, VECTOR.payload, at - WEBHOOK_TOLERANCE_SECONDS - 1)).toBe('timestamp_out_of_tolerance');
  });

  it('says which header is missing or malformed', () => {
    expect(verifyDelivery([key], { ...headers, signature: undefined }, VECTOR.payload, at)).toBe('signature_missing');
    expect(verifyDelivery([key], { ...headers, id: '' }, VECTOR.payload, at)).toBe('signature_missing');
    expect(verifyDelivery([key], { ...headers, timestamp: '1614265330.5' }, VECTOR.payload, at)).toBe('timestamp_invalid');
    expect(verifyDelivery([key], { ...headers, timestamp: 'now' }, VECTOR.payload, at)).toBe('timestamp_invalid');
  });

  it('refuses secrets that are not whsec_ and 24 to 64 bytes of base64, without repeating them', () => {
    for (const bad of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_', 'whsec_***', `whsec_${Buffer.alloc(8).toString('base64')}`, `whsec_${Buffer.alloc(65).toString('base64')}`]) {
      expect(() => webhookSecretKey(bad)).toThrow();
      try {
        webhookSecretKey(bad);
      } catch (e) {
        if (bad.length > 8) expect((e as Error).message).not.toContain(bad.slice(6));
      }
    }
  });

  it('signs a delivery as the headers a sender sends, which the verifier accepts and the vector matches', () => {
    const signed = signedDeliveryHeaders(key, VECTOR.id, VECTOR.payload, at + 0.9);
    expect(signed).toEqual({ 'webhook-id': VECTOR.id, 'webhook-timestamp': VECTOR.timestamp, 'webhook-signature': VECTOR.signature });
    const asReceived = { id: signed['webhook-id'], timestamp: signed['webhook-timestamp'], signature: signed['webhook-signature'] };
    expect(verifyDelivery([key], asReceived, VECTOR.payload, at)).toBeUndefined();
    expect(verifyDelivery([key], asReceived, Buffer.from('{"test": 2432232315}', 'utf8'), at)).toBe('signature_invalid');
  });
});
