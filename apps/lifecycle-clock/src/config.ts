import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings } from '@dsar/platform/config';
import { lifecycleFields } from '@dsar/services/lifecycle-clock';

/** Settings of the lifecycle-clock process (its database and bus, and the deadline monitor); see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['lifecycle-clock']),
    ...databaseFields,
    ...busFields,
    ...lifecycleFields,
    ...internalAuthFields,
  })
  .superRefine(requireServiceSettings, everyProblem);
