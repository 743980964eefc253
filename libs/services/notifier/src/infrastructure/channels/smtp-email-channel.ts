import { createTransport, type NodemailerError, type Transporter } from 'nodemailer';
import type { EmailChannel, OutgoingEmail, SendOutcome } from './channel';
import { errorText } from './error-text';
import { mailOptions } from './mail-message';

export interface SmtpEmailSettings {
  /** `smtp://` or `smtps://`, with the login in the URL when the server wants one. */
  url: string;
  /** Signs every message (DKIM), for receivers that check the sender's domain. */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /** The domain of our Message-IDs; default the sender's domain. */
  messageIdDomain?: string;
  /** How long connecting, the greeting and a silent server may take each (default 30 s). */
  timeoutMs?: number;
}

/**
 * Failures without an SMTP reply that a later try can get past: the server or
 * the network was unreachable, slow or dropped the connection. nodemailer
 * wraps socket errors in its own codes and keeps the system one as
 * `originalCode`.
 */
const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether a try later can succeed. An SMTP reply says it itself (RFC 5321):
 * 4xx is transient, 5xx permanent; 503 (bad sequence of commands) is the
 * exception, a session out of step rather than a refusal of the message, that
 * a new connection gets past. Without a reply, network and timeout errors are
 * transient and the rest (a malformed address, a refused login, a bad
 * configuration) permanent: sending the same again would fail the same way.
 */
export function isTransientSmtpError(e: NodemailerError): boolean {
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return e.responseCode < 500 || e.responseCode === 503;
  return NETWORK_CODES.has(e.code ?? '') || NETWORK_CODES.has(e.originalCode ?? '') || e.timeoutType !== undefined;
}

/** One line for the attempt record: the command and the server's reply, or the client's error; addresses scrubbed. */
export function smtpErrorText(e: NodemailerError): string {
  if (e.response) return errorText(`SMTP ${e.command ? `${e.command} ` : ''}refused: ${e.response}`);
  return errorText(`SMTP ${e.code ?? 'error'}${e.originalCode && e.originalCode !== e.code ? `/${e.originalCode}` : ''}: ${e.message}`);
}

/**
 * Email through an SMTP server (nodemailer, a pool of connections kept open
 * between sends). A send's outcome is the server's answer to it: accepted
 * means handed over, not delivered; the server's own retries and bounces
 * are beyond it.
 */
export class SmtpEmailChannel implements EmailChannel {
  readonly kind = 'smtp';
  private readonly transport: Transporter;
  private readonly inFlight = new Set<Promise<SendOutcome>>();
  private closed = false;

  constructor(private readonly settings: SmtpEmailSettings) {
    const timeoutMs = settings.timeoutMs ?? 30_000;
    this.transport = createTransport({
      pool: true,
      url: settings.url,
      maxConnections: 2,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      ...(settings.dkim ? { dkim: settings.dkim } : {}),
    });
    // A failing pooled connection is also reported on the transport; the send that used it
    // gets the same error, so this listener only keeps an unhandled 'error' from ending the process.
    this.transport.on('error', () => undefined);
  }

  async send(mail: OutgoingEmail): Promise<SendOutcome> {
    if (this.closed) return { ok: false, transient: true, error: 'the SMTP channel is closed (the service is stopping)' };
    const sending = this.deliver(mail);
    this.inFlight.add(sending);
    try {
      return await sending;
    } finally {
      this.inFlight.delete(sending);
    }
  }

  /** Lets the sends under way finish (their timeouts bound the wait), then closes the pooled connections. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    this.transport.close();
  }

  private async deliver(mail: OutgoingEmail): Promise<SendOutcome> {
    try {
      const info = await this.transport.sendMail(mailOptions(mail, this.settings.messageIdDomain));
      return { ok: true, providerId: info.messageId };
    } catch (e) {
      const err = e as NodemailerError;
      return { ok: false, transient: isTransientSmtpError(err), error: smtpErrorText(err) };
    }
  }
}
