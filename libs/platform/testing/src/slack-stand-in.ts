import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait-for';

/** One Web API call the stand-in received, answered or not. */
export interface SlackCall {
  /** The method, e.g. `chat.postMessage`. */
  method: string;
  /** The bearer token it carried (or the `token` form field), undefined when none. */
  token: string | undefined;
  /** The arguments, parsed from form-urlencoded (the WebClient's default) or JSON. */
  body: Record<string, unknown>;
  at: Date;
}

export interface SlackStandIn {
  /** `http://127.0.0.1:PORT/api/`, the WebClient's `slackApiUrl`. */
  readonly apiUrl: string;
  /** Every call, in order, including the refused ones. */
  readonly calls: SlackCall[];
  waitFor(predicate: (c: SlackCall) => boolean, timeoutMs?: number): Promise<SlackCall>;
  /** Answers the next `count` calls (to `channel` only, when given) with HTTP 429 and `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds: number, channel?: string): void;
  /** Answers the next `count` calls (to `channel` only, when given) with HTTP 200 `{ok: false, error}`, e.g. `channel_not_found`. */
  failNext(count: number, error: string, channel?: string): void;
  clear(): void;
  close(): Promise<void>;
}

export interface SlackStandInOptions {
  /** The only token accepted (default `xoxb-test`); any other, or none, gets `invalid_auth` (Slack itself says `not_authed` for none). */
  token?: string;
  /** Channels that do not exist (`channel_not_found`); every other channel does. */
  unknownChannels?: string[];
}

/** `channel`: only a call to that channel takes it; any call when undefined. */
type PlannedAnswer = ({ kind: 'rate-limited'; retryAfterSeconds: number } | { kind: 'error'; error: string }) & { channel?: string };

/** What the Slack Web API answers in its own shape: HTTP 200 with `ok` saying whether it worked. */
function answer(res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function tokenOf(req: IncomingMessage, body: Record<string, unknown>): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (bearer) return bearer[1].trim();
  return typeof body.token === 'string' ? body.token : undefined;
}

/**
 * A stand-in for the Slack Web API on loopback, enough for a WebClient that
 * posts messages: `auth.test` and `chat.postMessage` with a token check, an
 * unknown channel, and planned rate limits and platform errors. It records
 * every call, so a test asserts on what the client really sent over HTTP.
 */
export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<SlackStandIn> {
  const token = options.token ?? 'xoxb-test';
  const unknownChannels = new Set(options.unknownChannels ?? []);
  const calls: SlackCall[] = [];
  const planned: PlannedAnswer[] = [];
  let messageCount = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = /^\/api\/([A-Za-z0-9._-]+)$/.exec((req.url ?? '').split('?')[0])?.[1];
    if (req.method !== 'POST' || !method) return answer(res, 404, { ok: false, error: 'unknown_method' });
    const body = await readBody(req);
    const callToken = tokenOf(req, body);
    calls.push({ method, token: callToken, body, at: new Date() });

    const index = planned.findIndex((p) => p.channel === undefined || p.channel === body.channel);
    const next = index === -1 ? undefined : planned.splice(index, 1)[0];
    if (next?.kind === 'rate-limited') return answer(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(next.retryAfterSeconds) });
    if (next?.kind === 'error') return answer(res, 200, { ok: false, error: next.error });
    if (callToken !== token) return answer(res, 200, { ok: false, error: 'invalid_auth' });

    switch (method) {
      case 'auth.test':
        return answer(res, 200, { ok: true, url: 'https://stand-in.slack.test/', team: 'Test', user: 'dsar-bot', team_id: 'T0TEST', user_id: 'U0TEST', bot_id: 'B0TEST' });
      case 'chat.postMessage': {
        const channel = typeof body.channel === 'string' ? body.channel : '';
        if (!channel) return answer(res, 200, { ok: false, error: 'channel_not_found' });
        if (unknownChannels.has(channel)) return answer(res, 200, { ok: false, error: 'channel_not_found' });
        if (typeof body.text !== 'string' && body.blocks === undefined) return answer(res, 200, { ok: false, error: 'no_text' });
        messageCount += 1;
        // Slack's ts: seconds and a six-digit sequence, unique per channel.
        const ts = `${Math.floor(Date.now() / 1000)}.${String(messageCount).padStart(6, '0')}`;
        return answer(res, 200, { ok: true, channel, ts, message: { type: 'message', text: body.text, ts, bot_id: 'B0TEST', client_msg_id: randomUUID() } });
      }
      default:
        return answer(res, 200, { ok: false, error: 'unknown_method' });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, { ok: false, error: 'internal_error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    calls,
    waitFor: (predicate, timeoutMs = 5000) => waitFor('a matching call at the Slack stand-in', () => calls.find(predicate), { timeoutMs, intervalMs: 10 }),
    rateLimitNext(count, retryAfterSeconds, channel) {
      for (let i = 0; i < count; i += 1) planned.push({ kind: 'rate-limited', retryAfterSeconds, channel });
    },
    failNext(count, error, channel) {
      for (let i = 0; i < count; i += 1) planned.push({ kind: 'error', error, channel });
    },
    clear() {
      calls.length = 0;
      planned.length = 0;
    },
    close() {
      // Keep-alive connections of the client would hold close() open until they time out.
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
