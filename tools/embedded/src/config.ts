import { z } from 'zod';
import { busFields, commonFields, databaseFields, everyProblem, httpFields, identityIndexKeyFields, internalAuthFields, requestReferenceKeyFields, requireDriverSettings } from '@dsar/platform/config';
import { type GatewayConfig, gatewayFields, requireConsoleSettings } from '@dsar/services/api-gateway';
import { auditFields } from '@dsar/services/audit-ledger';
import { lifecycleFields } from '@dsar/services/lifecycle-clock';
import { requireStorageSettings, storageFields } from '@dsar/platform/storage';
import { dataSystemFields, deliveryFields, fulfilmentFields } from '@dsar/services/fulfilment-delivery';
import { requireWebhookSettings, webhookFields } from '@dsar/services/intake-gateway';
import { notifierFields } from '@dsar/services/notifier';
import { verificationFields } from '@dsar/services/verification';
import { requireAuthSettings } from '@dsar/platform/auth';

/** `npm start` writes readable lines for a terminal; LOG_FORMAT=json gives the services' JSON lines. */
export const EMBEDDED_LOG_FORMAT = 'pretty';

/**
 * Settings of the embedded runner (`npm start`): the whole product in one
 * process. The defaults need nothing installed: PGlite under DATA_DIR and the
 * in-memory bus. The same process can run against PostgreSQL and Kafka by
 * setting DB_DRIVER and BUS_DRIVER. With no authentication configured it makes
 * a development admin key (DATA_DIR/dev-token) and a development reviewer key
 * (DATA_DIR/reviewer-token, an operator), without an audit signing
 * key a development one (DATA_DIR/audit-signing-key.pem), without an
 * internal auth key one in DATA_DIR/internal-auth-key, without a request
 * reference key one in DATA_DIR/request-reference-key, and without an identity
 * index key one in DATA_DIR/identity-index-key.
 */
export const embeddedConfigSchema = z
  .object({
    ...commonFields,
    // For a person at a terminal: readable lines, warnings and errors only, unless LOG_FORMAT or LOG_LEVEL say otherwise.
    LOG_FORMAT: commonFields.LOG_FORMAT.removeDefault().optional(),
    LOG_LEVEL: commonFields.LOG_LEVEL.removeDefault().optional(),
    ...httpFields,
    // This machine only: the start prints an admin key when no authentication is configured. HOST=0.0.0.0 widens it.
    HOST: z.string().default('127.0.0.1'),
    PORT: httpFields.PORT.default(8080),
    ...databaseFields,
    ...busFields,
    ...gatewayFields,
    ...lifecycleFields,
    ...verificationFields,
    ...fulfilmentFields,
    ...deliveryFields,
    ...dataSystemFields,
    // This machine: a webhook system on localhost may be plain http unless DATA_SYSTEM_WEBHOOK_ALLOW_HTTP says otherwise.
    DATA_SYSTEM_WEBHOOK_ALLOW_HTTP: dataSystemFields.DATA_SYSTEM_WEBHOOK_ALLOW_HTTP.removeDefault().default(true),
    ...notifierFields,
    ...webhookFields,
    ...storageFields,
    ...auditFields,
    ...internalAuthFields,
    ...requestReferenceKeyFields,
    ...identityIndexKeyFields,
  })
  .superRefine((value, ctx) => {
    requireDriverSettings(value, ctx);
    requireAuthSettings(value, ctx);
    requireConsoleSettings(value, ctx);
    requireStorageSettings(value, ctx);
    requireWebhookSettings(value, ctx);
  }, everyProblem)
  .transform(({ LOG_FORMAT, LOG_LEVEL, ...rest }) => {
    const format = LOG_FORMAT ?? EMBEDDED_LOG_FORMAT;
    return { ...rest, LOG_FORMAT: format, LOG_LEVEL: LOG_LEVEL ?? (format === 'pretty' ? 'warn' : 'info') };
  });

export type EmbeddedConfig = z.infer<typeof embeddedConfigSchema>;
export type { GatewayConfig };
