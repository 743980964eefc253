/**
 * The ports the notifier sends through. A channel never throws for a failed
 * send: it answers with an outcome that says whether trying again later can
 * help, and the dispatcher's durable retry decides when. Error texts are
 * short, one line and free of email addresses: they are stored with the
 * attempt and shown to operators.
 */

export interface OutgoingEmail {
  /** One address, or several separated by commas. */
  to: string;
  /** The From, e.g. `"Acme Privacy <privacy@acme.example>"`. */
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Our id, used for the Message-ID header: the same on every try, so a receiver can tell a resend. */
  messageId: string;
  /** The message's language (a BCP 47 tag), sent as Content-Language. */
  language?: string;
  /** Extra headers (e.g. X-DSAR-Reference). */
  headers?: Record<string, string>;
}

export interface OutgoingChat {
  /** A channel name (`#privacy-ops`) or id (`C0123ABCD`). */
  channel: string;
  text: string;
}

export type SendOutcome = { ok: true; providerId?: string } | { ok: false; transient: boolean; error: string; retryAfterMs?: number };

export interface EmailChannel {
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingEmail): Promise<SendOutcome>;
  /**
   * For a channel that keeps a copy of what it sent (the `.eml` folder): removes the copies of these messages, by
   * our message id (the send's id), every try included; answers how many it removed. An SMTP server's copy is out
   * of our hands, so that channel has none.
   */
  removeCopies?(messageIds: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

export interface ChatChannel {
  readonly kind: 'slack' | 'log';
  send(message: OutgoingChat): Promise<SendOutcome>;
  close(): Promise<void>;
}
