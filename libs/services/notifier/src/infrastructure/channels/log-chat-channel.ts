import type { ChatChannel, OutgoingChat, SendOutcome } from './channel';

/**
 * Chat messages into the service log, for embedded mode without Slack. The
 * line says that a message went to a channel and how long it was, never its
 * text: the log is kept longer and read by more people than the messages,
 * and a message can name a data subject.
 */
export class LogChatChannel implements ChatChannel {
  readonly kind = 'log';

  constructor(private readonly log: (line: string, fields: Record<string, unknown>) => void) {}

  async send(message: OutgoingChat): Promise<SendOutcome> {
    this.log('chat message', { channel: message.channel, length: message.text.length });
    return { ok: true };
  }

  async close(): Promise<void> {
    // Nothing is held open.
  }
}
