import { DEFAULT_SERVICE_PORTS, serviceConfigSchema } from '@dsar/platform/config';

/** Settings of the policy-registry process; see the configuration table in the README. */
export const configSchema = serviceConfigSchema(DEFAULT_SERVICE_PORTS['policy-registry']);
