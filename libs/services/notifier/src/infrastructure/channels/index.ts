export type { ChatChannel, EmailChannel, OutgoingChat, OutgoingEmail, SendOutcome } from './channel';
export { maskDestination } from './mask';
export { errorText } from './error-text';
export { isTransientSmtpError, SmtpEmailChannel, type SmtpEmailSettings, smtpErrorText } from './smtp-email-channel';
export { FileEmailChannel } from './file-email-channel';
// The Slack channel is loaded by notifier-channels.ts only when Slack is configured (it brings Bolt's Web API client).
export type { SlackChatSettings } from './slack-chat-channel';
export { LogChatChannel } from './log-chat-channel';
