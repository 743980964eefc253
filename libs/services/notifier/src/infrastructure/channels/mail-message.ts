import type { SendMailOptions } from 'nodemailer';
import type { OutgoingEmail } from './channel';

const FALLBACK_DOMAIN = 'dsar.local';

/** Our id as the local part of a Message-ID (a dot-atom) and as part of a file name: letters, digits, `.`, `_`, `-`. */
export function safeMessageId(messageId: string): string {
  return messageId.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+/, '') || 'message';
}

/** The domain of a From such as `"Acme Privacy <privacy@acme.example>"` or `privacy@acme.example`. */
export function senderDomain(from: string): string | undefined {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  return address.includes('@') && /^[a-z0-9.-]+$/.test(domain) ? domain : undefined;
}

/**
 * The nodemailer message of an outgoing email. The Message-ID is ours
 * (`<id@domain>`, the sender's domain unless configured): the same on every
 * try of a send, so a receiver can drop a duplicate after a crash between
 * the server's acceptance and our record of it.
 */
export function mailOptions(mail: OutgoingEmail, messageIdDomain?: string): SendMailOptions {
  const domain = messageIdDomain ?? senderDomain(mail.from) ?? FALLBACK_DOMAIN;
  return {
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: `<${safeMessageId(mail.messageId)}@${domain}>`,
    headers: { ...(mail.headers ?? {}), ...(mail.language ? { 'Content-Language': mail.language } : {}) },
  };
}
