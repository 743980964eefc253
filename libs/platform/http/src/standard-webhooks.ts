import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures (standardwebhooks.com; Svix and so Resend sign
 * this way): an HMAC-SHA256 over `${id}.${timestamp}.${body}` with the bytes of
 * the `whsec_` secret, sent base64 as `v1,<signature>` in a space-separated
 * list, so a sender can sign with several secrets while it rotates them.
 * Shared by the receivers (intake-gateway's inbound webhooks) and the senders
 * (fulfilment-delivery's calls to webhook data systems): one primitive, so
 * both sides agree byte for byte.
 */

/** How far the signed timestamp may lie from our time, either way (the reference libraries' five minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/** Why a delivery's signature was not accepted. */
export type SignatureFailure = 'signature_missing' | 'signature_invalid' | 'timestamp_invalid' | 'timestamp_out_of_tolerance';

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * The HMAC key of a `whsec_` secret: the bytes of the base64 after the prefix,
 * 24 to 64 of them (the spec's range). Throws, without repeating the secret,
 * when it is not one.
 */
export function webhookSecretKey(secret: string): Buffer {
  const m = SECRET.exec(secret.trim());
  if (!m) throw new Error('must be whsec_ followed by base64 (as the provider shows it)');
  const key = Buffer.from(m[1], 'base64');
  if (key.toString('base64').replace(/=+$/, '') !== m[1].replace(/=+$/, '')) throw new Error('the part after whsec_ is not valid base64');
  if (key.length < 24 || key.length > 64) throw new Error(`must hold 24 to 64 bytes after whsec_ (it holds ${key.length})`);
  return key;
}

/** The signature headers of a delivery, as sent (webhook-* or svix-*). */
export interface SignatureHeaders {
  id?: string;
  timestamp?: string;
  signature?: string;
}

/** The signature of one delivery under one key, as it stands after `v1,`. */
export function signDelivery(key: Buffer, id: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');
}

/**
 * Whether a delivery is signed by one of `keys` within the tolerance of
 * `nowSeconds` (the machine's time, not the domain's clock: docs/adr/0019):
 * undefined when it is, else why not. Every `v1,` signature of the header is
 * compared with every key's, in constant time; other versions (`v1a,`
 * asymmetric) are skipped.
 */
export function verifyDelivery(keys: readonly Buffer[], headers: SignatureHeaders, body: Buffer, nowSeconds: number): SignatureFailure | undefined {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return 'signature_missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'timestamp_invalid';
  if (Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return 'timestamp_out_of_tolerance';
  const given = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => entry.slice(3))
    .filter((b64) => /^[A-Za-z0-9+/]{43}=$/.test(b64))
    .map((b64) => Buffer.from(b64, 'base64'));
  const expected = keys.map((key) => Buffer.from(signDelivery(key, id, timestamp, body), 'base64'));
  let valid = false;
  for (const g of given) for (const e of expected) if (timingSafeEqual(g, e)) valid = true;
  return valid ? undefined : 'signature_invalid';
}

/** The three headers of a signed delivery, by their Standard Webhooks names. */
export interface SignedDeliveryHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The headers that sign `body` as delivery `id` at `nowSeconds` (the machine's
 * time, as the receiver checks it) under `key` (webhookSecretKey of the
 * secret). The body must go on the wire exactly as signed.
 */
export function signedDeliveryHeaders(key: Buffer, id: string, body: Buffer, nowSeconds: number): SignedDeliveryHeaders {
  const timestamp = String(Math.floor(nowSeconds));
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signDelivery(key, id, timestamp, body)}` };
}
