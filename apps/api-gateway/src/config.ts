import { z } from 'zod';
import { commonFields, DEFAULT_SERVICE_PORTS, httpFields, upstreamUrlVariable } from '@dsar/platform/config';
import { UPSTREAM_SERVICES } from '@dsar/services/api-gateway';

const upstreamFields = Object.fromEntries(
  UPSTREAM_SERVICES.map((s) => [upstreamUrlVariable(s), z.url().default(`http://127.0.0.1:${DEFAULT_SERVICE_PORTS[s]}`)]),
) as Record<string, z.ZodDefault<z.ZodURL>>;

/** Settings of the api-gateway process; see the configuration table in the README. */
export const configSchema = z.object({
  ...commonFields,
  ...httpFields,
  PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['api-gateway']),
  ...upstreamFields,
});
