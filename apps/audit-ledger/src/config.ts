import { DEFAULT_SERVICE_PORTS, serviceConfigSchema } from '@dsar/platform/config';

/** Settings of the audit-ledger process; see the configuration table in the README. */
export const configSchema = serviceConfigSchema(DEFAULT_SERVICE_PORTS['audit-ledger']);
