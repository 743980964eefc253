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
import { requireWebhookSettings, webhookFields } from '@dsar/services/intake-gateway';

/**
 * Settings of the intake-gateway process (its database and bus, lifecycle-clock's URL, the inbound webhooks'
 * secrets and routes, and the key that checks the tag of a quoted request reference); see the README's
 * configuration table.
 */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['intake-gateway']),
    ...databaseFields,
    ...busFields,
    LIFECYCLE_CLOCK_URL: upstreamUrlFields(['lifecycle-clock']).LIFECYCLE_CLOCK_URL,
    ...webhookFields,
    ...requestReferenceKeyFields,
    ...internalAuthFields,
  })
  .superRefine((value, ctx) => {
    requireServiceSettings(value, ctx);
    requireWebhookSettings(value, ctx);
    requireRequestReferenceKey(value, ctx);
  }, everyProblem);
