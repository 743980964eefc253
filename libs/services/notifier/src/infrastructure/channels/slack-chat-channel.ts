import { LogLevel, webApi } from '@slack/bolt';
import type { ChatChannel, OutgoingChat, SendOutcome } from './channel';
import { errorText } from './error-text';

export interface SlackChatSettings {
  /** The bot token (`xoxb-…`); it needs the `chat:write` scope. */
  token: string;
  /** The Web API's base URL, default `https://slack.com/api/` (a proxy or a test server). */
  apiUrl?: string;
  /** How long one call may take (default 10 s). */
  timeoutMs?: number;
}

/** Platform errors (HTTP 200, `ok: false`) that say Slack, not the request, failed: the same call can pass later. */
const TRANSIENT_PLATFORM_ERRORS = new Set(['ratelimited', 'service_unavailable', 'internal_error', 'fatal_error', 'request_timeout']);

/**
 * A Web API failure as an outcome. Rate limits (HTTP 429) carry the wait
 * Slack asks for; the network and HTTP 5xx are transient; a platform error
 * is permanent unless it is one of Slack's own troubles: a missing channel,
 * a bot not in it, a revoked token or a too long text fail the same way on
 * every try until someone changes the settings.
 */
export function slackOutcome(e: unknown): SendOutcome & { ok: false } {
  const err = e as Partial<webApi.WebAPICallError> & Error;
  switch (err.code) {
    case webApi.ErrorCode.RateLimitedError: {
      const retryAfter = (err as webApi.WebAPIRateLimitedError).retryAfter;
      return { ok: false, transient: true, error: `Slack rate limit (retry after ${retryAfter} s)`, retryAfterMs: Math.max(0, retryAfter) * 1000 };
    }
    case webApi.ErrorCode.RequestError: {
      const original = (err as webApi.WebAPIRequestError).original;
      return { ok: false, transient: true, error: errorText(`Slack could not be reached: ${original?.message ?? err.message}`) };
    }
    case webApi.ErrorCode.HTTPError: {
      const status = (err as webApi.WebAPIHTTPError).statusCode;
      return { ok: false, transient: status >= 500 || status === 408, error: `Slack answered HTTP ${status}` };
    }
    case webApi.ErrorCode.PlatformError: {
      const data = (err as webApi.WebAPIPlatformError).data;
      const retryAfter = data.response_metadata?.retryAfter;
      return {
        ok: false,
        transient: TRANSIENT_PLATFORM_ERRORS.has(data.error),
        error: errorText(`Slack refused the message: ${data.error}`),
        ...(data.error === 'ratelimited' && typeof retryAfter === 'number' ? { retryAfterMs: retryAfter * 1000 } : {}),
      };
    }
    default:
      return { ok: false, transient: false, error: errorText(`Slack call failed: ${err?.message ?? String(e)}`) };
  }
}

/**
 * Chat messages through the Slack Web API (`chat.postMessage`, Bolt's
 * WebClient). The client neither retries nor waits out rate limits: a send
 * answers at once, and the notifier's durable retry tries again later, after
 * the wait Slack asked for, surviving a restart in between.
 */
export class SlackChatChannel implements ChatChannel {
  readonly kind = 'slack';
  private readonly client: webApi.WebClient;

  constructor(settings: SlackChatSettings) {
    this.client = new webApi.WebClient(settings.token, {
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: settings.timeoutMs ?? 10_000,
      // Its warnings repeat the failures our outcomes already report.
      logLevel: LogLevel.ERROR,
      ...(settings.apiUrl ? { slackApiUrl: settings.apiUrl } : {}),
    });
  }

  async send(message: OutgoingChat): Promise<SendOutcome> {
    try {
      const result = await this.client.chat.postMessage({ channel: message.channel, text: message.text, unfurl_links: false, unfurl_media: false });
      return { ok: true, ...(result.ts ? { providerId: result.ts } : {}) };
    } catch (e) {
      return slackOutcome(e);
    }
  }

  async close(): Promise<void> {
    // Nothing to release: the client holds no connection of its own.
  }
}
