import { z } from 'zod';
import { commonFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireInternalAuthKey, upstreamUrlFields } from '@dsar/platform/config';
import { gatewayFields, requireGatewaySettings, UPSTREAM_SERVICES } from '@dsar/services/api-gateway';

/** Settings of the api-gateway process; see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['api-gateway']),
    ...upstreamUrlFields(UPSTREAM_SERVICES),
    ...gatewayFields,
    ...internalAuthFields,
  })
  .superRefine((value, ctx) => {
    requireGatewaySettings(value, ctx);
    requireInternalAuthKey(value, ctx);
  }, everyProblem);
