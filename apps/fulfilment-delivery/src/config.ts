import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings, upstreamUrlFields } from '@dsar/platform/config';
import { requireStorageSettings, storageFields } from '@dsar/platform/storage';
import { dataSystemFields, deliveryFields, fulfilmentFields } from '@dsar/services/fulfilment-delivery';

/** Settings of the fulfilment-delivery process (its database, bus, lifecycle-clock's URL, artifact storage, review and delivery, data systems and their tasks); see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['fulfilment-delivery']),
    ...databaseFields,
    ...busFields,
    LIFECYCLE_CLOCK_URL: upstreamUrlFields(['lifecycle-clock']).LIFECYCLE_CLOCK_URL,
    ...storageFields,
    ...fulfilmentFields,
    ...deliveryFields,
    ...dataSystemFields,
    ...internalAuthFields,
  })
  .superRefine((value, ctx) => {
    requireServiceSettings(value, ctx);
    requireStorageSettings(value, ctx);
  }, everyProblem);
