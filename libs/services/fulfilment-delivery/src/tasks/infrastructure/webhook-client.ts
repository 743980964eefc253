import { signedDeliveryHeaders, signatureTime } from '@dsar/platform/http';

/** The most of a webhook's response body read: a task answer is small; more is a failed call, not memory spent. */
export const MAX_WEBHOOK_RESPONSE_BYTES = 64 * 1024;

/** What came back from one signed call: a status and the body read (bounded), or why there was no response. */
export type WebhookResponse = { ok: true; status: number; body: string } | { ok: false; reason: string };

/**
 * One signed POST of `body` to a webhook system, per Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature` over the exact bytes sent, with the machine's time as the receiver checks it). No redirect is
 * followed (a redirect is a failed call: the URL registered is the one called). The reason of a failure names the
 * kind of error only: never the URL (it may carry credentials), the secret or the body.
 */
export async function postSignedWebhook(url: string, key: Buffer, webhookId: string, body: Buffer, timeoutMs: number): Promise<WebhookResponse> {
  const headers = { 'content-type': 'application/json', 'user-agent': 'dsar-webhook-sender/1', ...signedDeliveryHeaders(key, webhookId, body, signatureTime() / 1000) };
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal });
  } catch (e) {
    return { ok: false, reason: failureOf(e, timeoutMs) };
  }
  try {
    return { ok: true, status: res.status, body: await boundedText(res, MAX_WEBHOOK_RESPONSE_BYTES) };
  } catch (e) {
    return { ok: false, reason: failureOf(e, timeoutMs) };
  }
}

/** The body as text, up to `max` bytes; a longer one fails the call (its stream is cancelled). */
async function boundedText(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLarge(max);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

class ResponseTooLarge extends Error {
  constructor(max: number) {
    super(`the response body is larger than ${max} bytes`);
  }
}

/** Why a call failed, in words that quote nothing the system sent or we hold secret. */
function failureOf(e: unknown, timeoutMs: number): string {
  if (e instanceof ResponseTooLarge) return e.message;
  const err = e as { name?: string; cause?: { code?: unknown } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `no response within ${timeoutMs} ms`;
  const code = typeof err?.cause?.code === 'string' && /^[A-Z_]{1,40}$/.test(err.cause.code) ? err.cause.code : undefined;
  return code ? `the call failed (${code})` : 'the call failed';
}
