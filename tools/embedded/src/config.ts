import { z } from 'zod';
import { busFields, commonFields, databaseFields, everyProblem, httpFields, requireDriverSettings } from '@dsar/platform/config';

/**
 * Settings of the embedded runner (`npm start`): the whole product in one
 * process. The defaults need nothing installed: PGlite under DATA_DIR and the
 * in-memory bus. The same process can run against PostgreSQL and Kafka by
 * setting DB_DRIVER and BUS_DRIVER.
 */
export const embeddedConfigSchema = z
  .object({
    ...commonFields,
    ...httpFields,
    PORT: httpFields.PORT.default(8080),
    ...databaseFields,
    ...busFields,
  })
  .superRefine(requireDriverSettings, everyProblem);

export type EmbeddedConfig = z.infer<typeof embeddedConfigSchema>;
