import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings, upstreamUrlFields } from '@dsar/platform/config';
import { POLICY_REGISTRY_CALLS, policyAdminFields } from '@dsar/services/policy-registry';

/** Settings of the policy-registry process (its database and bus, the URLs of the services it asks, and the four-eyes rule of pack upgrades); see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['policy-registry']),
    ...databaseFields,
    ...busFields,
    ...upstreamUrlFields(POLICY_REGISTRY_CALLS),
    ...policyAdminFields,
    ...internalAuthFields,
  })
  .superRefine(requireServiceSettings, everyProblem);
