import { Logger } from '@nestjs/common';
import type { Clock } from '@dsar/platform/clock';
import type { NotifierChannels } from '../application/dispatcher';
import type { NotifierSettings } from '../notifier-settings';
import { FileEmailChannel, LogChatChannel, SmtpEmailChannel } from './channels';

/**
 * The channels the settings give: SMTP when configured, else .eml files under DATA_DIR/mail; Slack when configured,
 * else the log. The Slack channel's module (and Bolt's Web API client with it) is loaded only when Slack is configured.
 */
export async function channelsFrom(settings: NotifierSettings, clock: Clock): Promise<NotifierChannels> {
  const log = new Logger('ChatLog');
  const slack = settings.slack;
  return {
    email: settings.smtpUrl ? new SmtpEmailChannel({ url: settings.smtpUrl, ...(settings.dkim ? { dkim: settings.dkim } : {}) }) : new FileEmailChannel(settings.mailDir, clock),
    chat: slack
      ? new (await import('./channels/slack-chat-channel')).SlackChatChannel({ token: slack.token, apiUrl: slack.apiUrl })
      : new LogChatChannel((line, fields) => log.log({ msg: line, ...fields })),
  };
}
