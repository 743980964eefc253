import { chmod, mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTransport } from 'nodemailer';
import { type Clock, systemClock } from '@dsar/platform/clock';
import type { EmailChannel, OutgoingEmail, SendOutcome } from './channel';
import { errorText } from './error-text';
import { mailOptions, safeMessageId } from './mail-message';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const EXTENSION = '.eml';

/** The file of one try of a message: `<time>-<messageId>.eml`, the time without colons (`2025-03-04T050607.089Z`). */
function fileNameOf(sentAt: Date, messageId: string): string {
  return `${sentAt.toISOString().replace(/:/g, '')}-${safeMessageId(messageId)}${EXTENSION}`;
}

/** The message id (as safeMessageId made it) of a file fileNameOf named; undefined for any other file. */
function messageIdOfFile(name: string): string | undefined {
  // The time holds no `Z` before its end, so its first `Z-` ends it.
  const end = name.indexOf('Z-');
  return end > 0 && name.endsWith(EXTENSION) ? name.slice(end + 2, -EXTENSION.length) : undefined;
}

function isMissing(e: unknown): boolean {
  return (e as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Email as `.eml` files in a directory, for embedded mode without a mail
 * server: each message is the complete RFC 5322 text an SMTP server would
 * have got (any mail client opens it), named `<time>-<messageId>.eml` so the
 * directory lists in sending order. Files are 0600 and the directory 0700:
 * the messages hold personal data, and go when their notification is purged
 * (removeCopies: the message id is the send's id).
 */
export class FileEmailChannel implements EmailChannel {
  readonly kind = 'file';
  readonly dir: string;
  // The stream transport only builds the message; nothing leaves the process.
  private readonly composer = createTransport({ streamTransport: true, buffer: true });

  constructor(
    dir: string,
    private readonly clock: Clock = systemClock,
  ) {
    this.dir = resolve(dir);
  }

  async send(mail: OutgoingEmail): Promise<SendOutcome> {
    const now = this.clock.now();
    let message: Buffer;
    try {
      message = (await this.composer.sendMail({ ...mailOptions(mail), date: now })).message as Buffer;
    } catch (e) {
      // A message nodemailer cannot build (a malformed address) will not build on the next try either.
      return { ok: false, transient: false, error: errorText(`building the message failed: ${(e as Error).message}`) };
    }
    const name = fileNameOf(now, mail.messageId);
    const path = join(this.dir, name);
    try {
      await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
      await writeFile(path, message, { mode: FILE_MODE });
      // The mode applies only when the file is created; a resend at the same instant overwrites the file.
      await chmod(path, FILE_MODE);
    } catch (e) {
      // A full disk or a wrong permission can be fixed before the next try.
      return { ok: false, transient: true, error: errorText(`writing the .eml file failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`) };
    }
    return { ok: true, providerId: name };
  }

  /**
   * Removes every file of these messages: a resend (a replay, or a try again after a crash) writes a file of its own
   * under the same id. One listing of the directory, however many ids.
   */
  async removeCopies(messageIds: readonly string[]): Promise<number> {
    if (messageIds.length === 0) return 0;
    const wanted = new Set(messageIds.map(safeMessageId));
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (e) {
      // Nothing was ever written.
      if (isMissing(e)) return 0;
      throw e;
    }
    let removed = 0;
    for (const name of names) {
      const id = messageIdOfFile(name);
      if (id === undefined || !wanted.has(id)) continue;
      try {
        await unlink(join(this.dir, name));
        removed++;
      } catch (e) {
        if (!isMissing(e)) throw e;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    // Nothing to release: the stream transport holds no connection.
  }
}
