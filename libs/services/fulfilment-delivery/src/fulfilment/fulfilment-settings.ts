import type { Provider } from '@nestjs/common';
import { z } from 'zod';
import { booleanFromEnv, jsonFromEnv } from '@dsar/platform/config';
import { type RetentionConfig, retentionFields } from '@dsar/platform/retention';

/** The largest artifact accepted unless configured otherwise: 2 GiB. */
export const DEFAULT_ARTIFACT_MAX_BYTES = 2 * 1024 ** 3;
/** The most ARTIFACT_MAX_BYTES may say: 1 TiB. */
const MAX_ARTIFACT_MAX_BYTES = 1024 ** 4;

/** One tenant's review rules (FULFILMENT_TENANT_SETTINGS). */
const tenantRules = z.strictObject({
  fourEyes: z.boolean().optional(),
});

export type FulfilmentTenantRules = z.infer<typeof tenantRules>;

/** The fulfilment part of fulfilment-delivery's settings (README configuration table), shared by its app and the embedded runner. */
export const fulfilmentFields = {
  /** The retention sweep of `fulfilment_artifact` and `delivery_log` (docs/retention.md). */
  ...retentionFields,
  /** The largest artifact accepted, in bytes (default 2 GiB). */
  ARTIFACT_MAX_BYTES: z.coerce.number().int().min(1).max(MAX_ARTIFACT_MAX_BYTES).default(DEFAULT_ARTIFACT_MAX_BYTES),
  /** Whether the principal who last changed a manifest's artifacts may not review them (four eyes). */
  MANIFEST_FOUR_EYES: booleanFromEnv.default(true),
  /** Per-tenant overrides, as JSON: `{"tenant-a": {"fourEyes": false}}`. */
  FULFILMENT_TENANT_SETTINGS: jsonFromEnv('must be a JSON object of tenant ids to {fourEyes}').pipe(z.record(z.string().min(1), tenantRules)),
};

export interface FulfilmentConfig extends RetentionConfig {
  ARTIFACT_MAX_BYTES: number;
  MANIFEST_FOUR_EYES: boolean;
  FULFILMENT_TENANT_SETTINGS: Record<string, FulfilmentTenantRules>;
}

export interface FulfilmentSettings {
  artifactMaxBytes: number;
  fourEyes: boolean;
  tenants: Readonly<Record<string, FulfilmentTenantRules>>;
}

export const FULFILMENT_SETTINGS = Symbol('FULFILMENT_SETTINGS');

/** The settings from configuration; absent values take the documented defaults. */
export function fulfilmentSettingsFrom(config: Partial<FulfilmentConfig>): FulfilmentSettings {
  return {
    artifactMaxBytes: config.ARTIFACT_MAX_BYTES ?? DEFAULT_ARTIFACT_MAX_BYTES,
    fourEyes: config.MANIFEST_FOUR_EYES ?? true,
    tenants: config.FULFILMENT_TENANT_SETTINGS ?? {},
  };
}

/** The providers of the fulfilment settings, for `fulfilmentDeliveryServiceWith([...], storage)`. */
export function fulfilmentSettingsProviders(config: Partial<FulfilmentConfig>): Provider[] {
  return [{ provide: FULFILMENT_SETTINGS, useValue: fulfilmentSettingsFrom(config) }];
}
