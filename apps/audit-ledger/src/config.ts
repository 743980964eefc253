import { z } from 'zod';
import { busFields, commonFields, databaseFields, DEFAULT_SERVICE_PORTS, everyProblem, httpFields, internalAuthFields, requireServiceSettings } from '@dsar/platform/config';
import { auditFields } from '@dsar/services/audit-ledger';

/** Settings of the audit-ledger process (its database and bus, and the signed checkpoints); see the configuration table in the README. */
export const configSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(DEFAULT_SERVICE_PORTS['audit-ledger']),
    ...databaseFields,
    ...busFields,
    ...auditFields,
    ...internalAuthFields,
  })
  .superRefine(requireServiceSettings, everyProblem);
