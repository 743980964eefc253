import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings, type ServiceName, upstreamUrlFields } from '@dsar/platform/config';
import { RETENTION_OWNERS } from '@dsar/services/policy-registry';

/** Settings of the policy-registry process (its database and bus, and the URLs of the services its retention report asks); see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['policy-registry']),
    ...databaseFields,
    ...busFields,
    ...upstreamUrlFields(RETENTION_OWNERS as ServiceName[]),
    ...internalAuthFields,
  })
  .superRefine(requireServiceSettings, everyProblem);
