import { z } from 'zod';
import {
  busFields,
  commonFields,
  databaseFields,
  DEFAULT_SERVICE_PORTS,
  everyProblem,
  httpFields,
  internalAuthFields,
  requestReferenceKeyFields,
  requireRequestReferenceKey,
  requireServiceSettings,
  upstreamUrlFields,
} from '@dsar/platform/config';
import { notifierFields, requirePortalUrl } from '@dsar/services/notifier';

/**
 * Settings of the notifier process (its database, bus, the URLs of lifecycle-clock and fulfilment-delivery, SMTP, Slack,
 * operators, retries, the key that tags the request reference in the subject of emails to data subjects, and the
 * person's download page its delivery links open); see the configuration table in the README.
 */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['notifier']),
    ...databaseFields,
    ...busFields,
    LIFECYCLE_CLOCK_URL: upstreamUrlFields(['lifecycle-clock']).LIFECYCLE_CLOCK_URL,
    FULFILMENT_DELIVERY_URL: upstreamUrlFields(['fulfilment-delivery']).FULFILMENT_DELIVERY_URL,
    ...notifierFields,
    ...requestReferenceKeyFields,
    ...internalAuthFields,
  })
  .superRefine((value, ctx) => {
    requireServiceSettings(value, ctx);
    requireRequestReferenceKey(value, ctx);
    requirePortalUrl(value, ctx);
    if (value.SMTP_URL && value.SMTP_URL_FILE) ctx.addIssue({ code: 'custom', path: ['SMTP_URL_FILE'], message: 'give SMTP_URL or SMTP_URL_FILE, not both' });
    if (value.SLACK_BOT_TOKEN && value.SLACK_BOT_TOKEN_FILE) ctx.addIssue({ code: 'custom', path: ['SLACK_BOT_TOKEN_FILE'], message: 'give SLACK_BOT_TOKEN or SLACK_BOT_TOKEN_FILE, not both' });
    const dkim = [value.NOTIFIER_DKIM_DOMAIN, value.NOTIFIER_DKIM_SELECTOR, value.NOTIFIER_DKIM_PRIVATE_KEY_FILE].filter((v) => v !== undefined).length;
    if (dkim !== 0 && dkim !== 3)
      ctx.addIssue({ code: 'custom', path: ['NOTIFIER_DKIM_DOMAIN'], message: 'DKIM needs NOTIFIER_DKIM_DOMAIN, NOTIFIER_DKIM_SELECTOR and NOTIFIER_DKIM_PRIVATE_KEY_FILE together' });
  }, everyProblem);
