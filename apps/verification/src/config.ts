import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings, upstreamUrlFields } from '@dsar/platform/config';
import { requireStorageSettings, storageFields } from '@dsar/platform/storage';
import { verificationFields } from '@dsar/services/verification';

/** Settings of the verification process (its database, bus, lifecycle-clock's URL, evidence storage, reminders and expiry); see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['verification']),
    ...databaseFields,
    ...busFields,
    LIFECYCLE_CLOCK_URL: upstreamUrlFields(['lifecycle-clock']).LIFECYCLE_CLOCK_URL,
    ...storageFields,
    ...verificationFields,
    ...internalAuthFields,
  })
  .superRefine((value, ctx) => {
    requireServiceSettings(value, ctx);
    requireStorageSettings(value, ctx);
  }, everyProblem);
