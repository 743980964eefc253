import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startMailServer, type TestMailServer } from '@dsar/platform/testing';
import type { OutgoingEmail } from './channel';
import { isTransientSmtpError, SmtpEmailChannel } from './smtp-email-channel';

const ADDRESS = /[^\s<>]+@[^\s<>]+/;

function email(overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    to: 'alice@example.org',
    from: 'Acme Privacy <privacy@acme.example>',
    subject: 'Your request DSAR-1234 was received',
    text: 'We received your request.',
    html: '<p>We received your request.</p>',
    messageId: 'send-0001',
    language: 'de',
    headers: { 'X-DSAR-Reference': 'DSAR-1234' },
    ...overrides,
  };
}

/** A TCP server that accepts connections and never says anything: a hung SMTP server. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('SmtpEmailChannel against a real SMTP server', () => {
  let server: TestMailServer;
  let channel: SmtpEmailChannel;

  beforeAll(async () => {
    server = await startMailServer();
    channel = new SmtpEmailChannel({ url: server.url, timeoutMs: 2000 });
  });
  afterAll(async () => {
    await channel.close();
    await server.close();
  });
  beforeEach(() => server.clear());

  it('delivers the message with our Message-ID, language and headers', async () => {
    const outcome = await channel.send(email());

    expect(outcome).toEqual({ ok: true, providerId: '<send-0001@acme.example>' });
    const received = await server.waitFor((m) => m.parsed.messageId === '<send-0001@acme.example>');
    expect(received.envelope).toEqual({ from: 'privacy@acme.example', to: ['alice@example.org'] });
    expect(received.parsed.subject).toBe('Your request DSAR-1234 was received');
    expect(received.parsed.text?.trim()).toBe('We received your request.');
    expect(received.parsed.html).toContain('<p>We received your request.</p>');
    expect(received.parsed.headers.get('content-language')).toBe('de');
    expect(received.parsed.headers.get('x-dsar-reference')).toBe('DSAR-1234');
    expect(received.parsed.from?.value[0]).toEqual({ address: 'privacy@acme.example', name: 'Acme Privacy' });
  });

  it('sends to every address of a comma list', async () => {
    await expect(channel.send(email({ to: 'ops1@acme.example, ops2@acme.example', messageId: 'send-0002', language: undefined }))).resolves.toMatchObject({ ok: true });
    const received = await server.waitFor((m) => m.parsed.messageId === '<send-0002@acme.example>');
    expect(received.envelope.to).toEqual(['ops1@acme.example', 'ops2@acme.example']);
    expect(received.parsed.headers.has('content-language')).toBe(false);
  });

  it('takes the Message-ID domain from the settings when given', async () => {
    const other = new SmtpEmailChannel({ url: server.url, messageIdDomain: 'dsar.local' });
    try {
      await expect(other.send(email({ messageId: 'send-0003' }))).resolves.toEqual({ ok: true, providerId: '<send-0003@dsar.local>' });
    } finally {
      await other.close();
    }
  });

  it('calls a 451 at DATA transient, and the next send on the pool goes through', async () => {
    server.failNext(1, 451, '4.3.0 Mailbox of <alice@example.org> busy, try later');

    const outcome = await channel.send(email({ messageId: 'send-0004' }));

    expect(outcome).toMatchObject({ ok: false, transient: true });
    if (outcome.ok) throw new Error('unreachable');
    expect(outcome.error).toContain('451');
    expect(outcome.error).not.toMatch(ADDRESS);
    expect(server.messages).toHaveLength(0);
    await expect(channel.send(email({ messageId: 'send-0005' }))).resolves.toMatchObject({ ok: true });
  });

  it('calls a 550 at DATA permanent', async () => {
    server.failNext(1, 550, '5.7.1 Message refused');
    const outcome = await channel.send(email({ messageId: 'send-0006' }));
    expect(outcome).toMatchObject({ ok: false, transient: false });
  });

  it('calls a 550 for the recipient permanent, without the address the server echoes', async () => {
    server.failNext(1, 550, '5.1.1 <alice@example.org>: Recipient address rejected', 'rcpt');

    const outcome = await channel.send(email({ messageId: 'send-0007' }));

    expect(outcome).toMatchObject({ ok: false, transient: false });
    if (outcome.ok) throw new Error('unreachable');
    expect(outcome.error).toContain('550');
    expect(outcome.error).not.toMatch(ADDRESS);
  });

  it('calls a 451 for the recipient transient', async () => {
    server.failNext(1, 451, '4.2.0 <alice@example.org> greylisted', 'rcpt');
    const outcome = await channel.send(email({ messageId: 'send-0008' }));
    expect(outcome).toMatchObject({ ok: false, transient: true });
    if (!outcome.ok) expect(outcome.error).not.toMatch(ADDRESS);
  });

  it('calls a malformed recipient permanent, without echoing it', async () => {
    const outcome = await channel.send(email({ to: 'alice@@example..org', messageId: 'send-0009' }));
    expect(outcome).toMatchObject({ ok: false, transient: false });
    if (!outcome.ok) expect(outcome.error).not.toContain('example');
  });

  it('signs with DKIM when configured', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const signing = new SmtpEmailChannel({ url: server.url, dkim: { domainName: 'acme.example', keySelector: 'dsar2025', privateKey } });
    try {
      await expect(signing.send(email({ messageId: 'send-0010' }))).resolves.toMatchObject({ ok: true });
    } finally {
      await signing.close();
    }
    const received = await server.waitFor((m) => m.parsed.messageId === '<send-0010@acme.example>');
    const signature = received.parsed.headerLines.find((h) => h.key === 'dkim-signature')?.line ?? '';
    expect(signature).toMatch(/d=acme\.example;/);
    expect(signature).toMatch(/s=dsar2025;/);
    expect(signature).toMatch(/b=[A-Za-z0-9+/=\s]{100,}/);
    expect(signature).toMatch(/h=[^;]*From/i);
  });

  it('does not sign without DKIM settings', async () => {
    await channel.send(email({ messageId: 'send-0011' }));
    const received = await server.waitFor((m) => m.parsed.messageId === '<send-0011@acme.example>');
    expect(received.parsed.headers.has('dkim-signature')).toBe(false);
  });

  it('refuses to send after close, as transient (the service is stopping)', async () => {
    const closing = new SmtpEmailChannel({ url: server.url });
    await closing.close();
    await expect(closing.send(email())).resolves.toMatchObject({ ok: false, transient: true });
  });
});

describe('SmtpEmailChannel without a reachable server', () => {
  it('calls a closed port transient', async () => {
    const server = await startMailServer();
    const url = server.url;
    await server.close();
    const channel = new SmtpEmailChannel({ url, timeoutMs: 2000 });
    try {
      const outcome = await channel.send(email());
      expect(outcome).toMatchObject({ ok: false, transient: true });
      if (!outcome.ok) {
        expect(outcome.error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
        expect(outcome.error).not.toMatch(ADDRESS);
      }
    } finally {
      await channel.close();
    }
  });

  it('calls a server that never greets transient after the timeout', async () => {
    const silent = await silentServer();
    const channel = new SmtpEmailChannel({ url: `smtp://127.0.0.1:${silent.port}`, timeoutMs: 300 });
    try {
      const started = performance.now();
      const outcome = await channel.send(email());
      expect(outcome).toMatchObject({ ok: false, transient: true });
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await channel.close();
      await silent.close();
    }
  });
});

describe('isTransientSmtpError', () => {
  it.each([
    [{ responseCode: 421 }, true],
    [{ responseCode: 451, code: 'EMESSAGE' }, true],
    [{ responseCode: 452, code: 'EENVELOPE' }, true],
    [{ responseCode: 503, code: 'EPROTOCOL' }, true],
    [{ responseCode: 550, code: 'EENVELOPE' }, false],
    [{ responseCode: 554, code: 'EMESSAGE' }, false],
    [{ responseCode: 535, code: 'EAUTH' }, false],
    [{ code: 'ECONNECTION' }, true],
    [{ code: 'ESOCKET', originalCode: 'ECONNRESET' }, true],
    [{ code: 'ETIMEDOUT', timeoutType: 'GREETING_TIMEOUT' }, true],
    [{ code: 'EDNS' }, true],
    [{ code: 'EENVELOPE' }, false],
    [{ code: 'EAUTH' }, false],
    [{ code: 'ECONFIG' }, false],
  ])('%j → transient %s', (error, transient) => {
    expect(isTransientSmtpError(Object.assign(new Error('x'), error) as never)).toBe(transient);
  });
});
