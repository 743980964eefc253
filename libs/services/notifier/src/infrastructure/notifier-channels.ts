import { Logger } from '@nestjs/common';
import type { Clock } from '@dsar/platform/clock';
import type { NotifierChannels } from '../application/dispatcher';
import type { NotifierSettings } from '../notifier-settings';
import { FileEmailChannel, LogChatChannel, SlackChatChannel, SmtpEmailChannel } from './channels';

/** The channels the settings give: SMTP when configured, else .eml files under DATA_DIR/mail; Slack when configured, else the log. */
export function channelsFrom(settings: NotifierSettings, clock: Clock): NotifierChannels {
  const log = new Logger('ChatLog');
  return {
    email: settings.smtpUrl ? new SmtpEmailChannel({ url: settings.smtpUrl, ...(settings.dkim ? { dkim: settings.dkim } : {}) }) : new FileEmailChannel(settings.mailDir, clock),
    chat: settings.slack ? new SlackChatChannel({ token: settings.slack.token, apiUrl: settings.slack.apiUrl }) : new LogChatChannel((line, fields) => log.log({ msg: line, ...fields })),
  };
}
