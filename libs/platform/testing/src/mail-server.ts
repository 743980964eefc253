import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { waitFor } from './wait-for';

/** One message the test server accepted: the SMTP envelope, the parsed message and its bytes as received. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
  raw: Buffer;
}

/** Where a planned failure answers: after the recipient (RCPT TO) or after the message (end of DATA). */
export type MailFailureStage = 'rcpt' | 'data';

export interface TestMailServer {
  /** `smtp://127.0.0.1:PORT`, for the client's connection URL. */
  readonly url: string;
  readonly port: number;
  /** Every accepted message, in order. */
  readonly messages: ReceivedMail[];
  waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /**
   * Answers the next `count` messages with `code` and `message` (451: try
   * later, 550: refused) at `stage`, DATA by default, instead of accepting them.
   * With `to`, only messages to that recipient fail; others pass (a system
   * under test sends other mail meanwhile).
   */
  failNext(count: number, code: number, message?: string, stage?: MailFailureStage, to?: string): void;
  /** Drops the planned failures that no message took yet. */
  clearFailures(): void;
  clear(): void;
  close(): Promise<void>;
}

export interface MailServerOptions {
  /** The largest message accepted, in bytes (default 10 MiB). */
  maxBytes?: number;
}

interface PlannedFailure {
  code: number;
  message: string;
  stage: MailFailureStage;
  /** Only a message to this recipient takes it; any message when undefined. */
  to?: string;
}

/** An SMTP error that smtp-server answers with its code. */
function smtpError(failure: PlannedFailure): Error & { responseCode: number } {
  return Object.assign(new Error(failure.message), { responseCode: failure.code });
}

/**
 * A real SMTP server on loopback (a random port, no TLS, any or no login) for
 * tests of mail sending: what a client sends goes through the SMTP protocol
 * and a MIME parser, so headers, encodings and DKIM signatures are checked as
 * a receiver would see them. `failNext` plans server refusals.
 */
export async function startMailServer(options: MailServerOptions = {}): Promise<TestMailServer> {
  const messages: ReceivedMail[] = [];
  const failures: PlannedFailure[] = [];
  const maxBytes = options.maxBytes ?? 10 * 1024 * 1024;

  // A planned failure belongs to one message: the RCPT stage takes it off the queue at the first recipient,
  // the DATA stage at the end of the message; a session's later recipients of a refused message pass.
  // The first planned failure that fits the stage and the recipients is taken.
  const takeFailure = (stage: MailFailureStage, recipients: string[]): PlannedFailure | undefined => {
    const index = failures.findIndex((f) => f.stage === stage && (f.to === undefined || recipients.includes(f.to)));
    return index === -1 ? undefined : failures.splice(index, 1)[0];
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: maxBytes,
    // Connections the client keeps open (a pool) must not hold close() for the default 30 seconds.
    closeTimeout: 100,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onRcptTo(address, _session, callback) {
      const failure = takeFailure('rcpt', [address.address]);
      callback(failure ? smtpError(failure) : null);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (e) => callback(e));
      stream.on('end', () => {
        const failure = takeFailure(
          'data',
          session.envelope.rcptTo.map((a: SMTPServerAddress) => a.address),
        );
        if (failure) return callback(smtpError(failure));
        const raw = Buffer.concat(chunks);
        const mailFrom = session.envelope.mailFrom;
        const envelope = {
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((a: SMTPServerAddress) => a.address),
        };
        simpleParser(raw).then(
          (parsed) => {
            messages.push({ envelope, parsed, raw });
            callback(null);
          },
          (e: unknown) => callback(e as Error),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor: (predicate, timeoutMs = 5000) => waitFor('a matching email at the test mail server', () => messages.find(predicate), { timeoutMs, intervalMs: 10 }),
    failNext(count, code, message = code >= 500 ? 'Requested action not taken' : 'Try again later', stage = 'data', to = undefined) {
      for (let i = 0; i < count; i += 1) failures.push({ code, message, stage, to });
    },
    clearFailures() {
      failures.length = 0;
    },
    clear() {
      messages.length = 0;
      failures.length = 0;
    },
    close() {
      closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closed;
    },
  };
}
