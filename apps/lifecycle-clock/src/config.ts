import { z } from 'zod';
import {
  busFields,
  commonFields,
  databaseFields,
  DEFAULT_SERVICE_PORTS,
  everyProblem,
  httpFields,
  identityIndexKeyFields,
  internalAuthFields,
  requireIdentityIndexKey,
  requireServiceSettings,
} from '@dsar/platform/config';
import { lifecycleFields } from '@dsar/services/lifecycle-clock';

/**
 * Settings of the lifecycle-clock process (its database and bus, the deadline monitor, and the key of the identity
 * index that finds a tenant's requests by a person's identity); see the configuration table in the README.
 */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['lifecycle-clock']),
    ...databaseFields,
    ...busFields,
    ...lifecycleFields,
    ...identityIndexKeyFields,
    ...internalAuthFields,
  })
  .superRefine((value, ctx) => {
    requireServiceSettings(value, ctx);
    requireIdentityIndexKey(value, ctx);
  }, everyProblem);
