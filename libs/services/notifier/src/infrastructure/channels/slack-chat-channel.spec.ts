import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { startSlackStandIn, type SlackStandIn } from '@dsar/platform/testing';
import { LogChatChannel } from './log-chat-channel';
import { SlackChatChannel, slackOutcome } from './slack-chat-channel';

describe('SlackChatChannel against the Slack stand-in', () => {
  let slack: SlackStandIn;
  let channel: SlackChatChannel;

  beforeAll(async () => {
    slack = await startSlackStandIn({ token: 'xoxb-test', unknownChannels: ['#gone'] });
    channel = new SlackChatChannel({ token: 'xoxb-test', apiUrl: slack.apiUrl, timeoutMs: 2000 });
  });
  afterAll(async () => {
    await channel.close();
    await slack.close();
  });
  beforeEach(() => slack.clear());

  it('posts the message with the bot token and answers with its ts', async () => {
    const outcome = await channel.send({ channel: '#privacy-ops', text: '*Request DSAR-1234 is overdue*\nIt was due yesterday.' });

    expect(outcome).toEqual({ ok: true, providerId: expect.stringMatching(/^\d+\.\d{6}$/) });
    const call = await slack.waitFor((c) => c.method === 'chat.postMessage');
    expect(call.token).toBe('xoxb-test');
    expect(call.body).toMatchObject({ channel: '#privacy-ops', text: '*Request DSAR-1234 is overdue*\nIt was due yesterday.' });
    expect(slack.calls).toHaveLength(1);
  });

  it('answers a rate limit (HTTP 429) transient with the wait Slack asked for, without retrying itself', async () => {
    slack.rateLimitNext(1, 7);

    const outcome = await channel.send({ channel: '#privacy-ops', text: 'hello' });

    expect(outcome).toMatchObject({ ok: false, transient: true, retryAfterMs: 7000 });
    expect(slack.calls).toHaveLength(1);
  });

  it('answers a platform "ratelimited" or "internal_error" transient', async () => {
    slack.failNext(1, 'ratelimited');
    slack.failNext(1, 'internal_error');
    await expect(channel.send({ channel: '#privacy-ops', text: 'a' })).resolves.toMatchObject({ ok: false, transient: true });
    await expect(channel.send({ channel: '#privacy-ops', text: 'b' })).resolves.toMatchObject({ ok: false, transient: true });
  });

  it('answers an unknown channel permanent', async () => {
    const outcome = await channel.send({ channel: '#gone', text: 'hello' });
    expect(outcome).toEqual({ ok: false, transient: false, error: 'Slack refused the message: channel_not_found' });
  });

  it('answers a planned platform error such as not_in_channel permanent', async () => {
    slack.failNext(1, 'not_in_channel');
    await expect(channel.send({ channel: 'C0123ABCD', text: 'hello' })).resolves.toMatchObject({ ok: false, transient: false, error: expect.stringContaining('not_in_channel') });
  });

  it('answers a wrong token permanent (invalid_auth)', async () => {
    const wrong = new SlackChatChannel({ token: 'xoxb-revoked', apiUrl: slack.apiUrl });
    const outcome = await wrong.send({ channel: '#privacy-ops', text: 'hello' });
    expect(outcome).toMatchObject({ ok: false, transient: false, error: expect.stringContaining('invalid_auth') });
    expect(slack.calls[0].token).toBe('xoxb-revoked');
  });
});

describe('SlackChatChannel without a reachable Slack', () => {
  it('answers transient when the API cannot be reached', async () => {
    const slack = await startSlackStandIn();
    const apiUrl = slack.apiUrl;
    await slack.close();
    const channel = new SlackChatChannel({ token: 'xoxb-test', apiUrl, timeoutMs: 2000 });

    const outcome = await channel.send({ channel: '#privacy-ops', text: 'hello' });

    expect(outcome).toMatchObject({ ok: false, transient: true, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('answers transient when the API does not answer within the timeout', async () => {
    const hung = createServer(() => undefined);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const channel = new SlackChatChannel({ token: 'xoxb-test', apiUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}/api/`, timeoutMs: 200 });
    try {
      await expect(channel.send({ channel: '#privacy-ops', text: 'hello' })).resolves.toMatchObject({ ok: false, transient: true });
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });
});

describe('slackOutcome', () => {
  const coded = (code: webApi.ErrorCode, fields: Record<string, unknown>) => Object.assign(new Error('x'), { code, ...fields });

  it.each([
    ['HTTP 503', coded(webApi.ErrorCode.HTTPError, { statusCode: 503 }), true],
    ['HTTP 500', coded(webApi.ErrorCode.HTTPError, { statusCode: 500 }), true],
    ['HTTP 404', coded(webApi.ErrorCode.HTTPError, { statusCode: 404 }), false],
    ['service_unavailable', coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'service_unavailable' } }), true],
    ['fatal_error', coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'fatal_error' } }), true],
    ['request_timeout', coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'request_timeout' } }), true],
    ['account_inactive', coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'account_inactive' } }), false],
    ['is_archived', coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'is_archived' } }), false],
    ['msg_too_long', coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'msg_too_long' } }), false],
    ['an unexpected error', new Error('boom'), false],
  ])('%s → transient %s', (_name, error, transient) => {
    expect(slackOutcome(error)).toMatchObject({ ok: false, transient });
  });

  it('takes the wait of a platform "ratelimited" from the response metadata', () => {
    const error = coded(webApi.ErrorCode.PlatformError, { data: { ok: false, error: 'ratelimited', response_metadata: { retryAfter: 30 } } });
    expect(slackOutcome(error)).toMatchObject({ ok: false, transient: true, retryAfterMs: 30_000 });
  });
});

describe('the Slack stand-in', () => {
  it('reads JSON bodies too, and refuses a missing token', async () => {
    const slack = await startSlackStandIn();
    try {
      const answer = await fetch(`${slack.apiUrl}chat.postMessage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channel: 'C0123ABCD', text: 'hi' }) });
      expect(await answer.json()).toEqual({ ok: false, error: 'invalid_auth' });
      expect(slack.calls[0]).toMatchObject({ method: 'chat.postMessage', token: undefined, body: { channel: 'C0123ABCD', text: 'hi' } });
      const auth = await fetch(`${slack.apiUrl}auth.test`, { method: 'POST', headers: { authorization: 'Bearer xoxb-test' } });
      expect(await auth.json()).toMatchObject({ ok: true });
    } finally {
      await slack.close();
    }
  });
});

describe('LogChatChannel', () => {
  it('logs the channel and the length, never the text', async () => {
    const lines: Array<[string, Record<string, unknown>]> = [];
    const channel = new LogChatChannel((line, fields) => lines.push([line, fields]));

    await expect(channel.send({ channel: '#privacy-ops', text: 'Alice Example asked to delete her data' })).resolves.toEqual({ ok: true });

    expect(lines).toEqual([['chat message', { channel: '#privacy-ops', length: 38 }]]);
    expect(JSON.stringify(lines)).not.toContain('Alice');
  });
});
