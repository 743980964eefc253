import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings, upstreamUrlFields } from '@dsar/platform/config';

/** Settings of the intake-gateway process (its database and bus, and lifecycle-clock's URL); see the README's configuration table. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['intake-gateway']),
    ...databaseFields,
    ...busFields,
    LIFECYCLE_CLOCK_URL: upstreamUrlFields(['lifecycle-clock']).LIFECYCLE_CLOCK_URL,
    ...internalAuthFields,
  })
  .superRefine(requireServiceSettings, everyProblem);
