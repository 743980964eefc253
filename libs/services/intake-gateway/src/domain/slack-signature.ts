// Bolt's request check alone: its package entry loads the whole framework (receivers, Web API client, OAuth).
import { verifySlackRequest } from '@slack/bolt/dist/receivers/verify-request';
import type { SignatureFailure } from '@dsar/platform/http';

/** Slack's window for a request's timestamp (docs.slack.dev, verifying requests from Slack). */
export const SLACK_TOLERANCE_SECONDS = 5 * 60;

/**
 * Whether a request is signed by Slack with `signingSecret` (`v0=` HMAC-SHA256
 * over `v0:${timestamp}:${body}`), checked by Bolt's own `verifySlackRequest`
 * (constant-time compare). Bolt refuses only timestamps too old; one more than
 * five minutes ahead of `nowMs` (the machine's time) is refused here as well.
 * Bolt takes the body as text: a body that is not UTF-8 could not be checked
 * byte for byte, and is refused.
 */
export function verifySlackSignature(signingSecret: string, headers: { signature?: string; timestamp?: string }, body: Buffer, nowMs: number): SignatureFailure | undefined {
  const { signature, timestamp } = headers;
  if (!signature || !timestamp) return 'signature_missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'timestamp_invalid';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_TOLERANCE_SECONDS) return 'timestamp_out_of_tolerance';
  const text = body.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(body)) return 'signature_invalid';
  try {
    verifySlackRequest({ signingSecret, body: text, headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': Number(timestamp) }, nowMilliseconds: nowMs });
    return undefined;
  } catch {
    return 'signature_invalid';
  }
}
