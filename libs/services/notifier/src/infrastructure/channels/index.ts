export type { ChatChannel, EmailChannel, OutgoingChat, OutgoingEmail, SendOutcome } from './channel';
export { maskDestination } from './mask';
export { errorText } from './error-text';
export { isTransientSmtpError, SmtpEmailChannel, type SmtpEmailSettings, smtpErrorText } from './smtp-email-channel';
export { FileEmailChannel } from './file-email-channel';
export { SlackChatChannel, type SlackChatSettings, slackOutcome } from './slack-chat-channel';
export { LogChatChannel } from './log-chat-channel';
