import type { Provider } from '@nestjs/common';
import { z } from 'zod';
import { booleanFromEnv, jsonFromEnv } from '@dsar/platform/config';

/** One tenant's rules for policy changes (POLICY_TENANT_SETTINGS); `upgradeFourEyes` keeps its first name but covers custom packs too. */
const tenantRules = z.strictObject({
  upgradeFourEyes: z.boolean().optional(),
});
export type PolicyTenantRules = z.infer<typeof tenantRules>;

/** policy-registry's settings of policy administration (README configuration table), shared by its app and the embedded runner. */
export const policyAdminFields = {
  /**
   * Four eyes on policy changes: the principal who proposed a pack upgrade may not approve it, and a custom pack
   * version is activated only once a principal other than its registrant approved it.
   */
  POLICY_UPGRADE_FOUR_EYES: booleanFromEnv.default(true),
  /** Per-tenant overrides, as JSON: `{"tenant-a": {"upgradeFourEyes": false}}`. */
  POLICY_TENANT_SETTINGS: jsonFromEnv('must be a JSON object of tenant ids to {upgradeFourEyes}').pipe(z.record(z.string().min(1), tenantRules)),
};

export interface PolicyAdminConfig {
  POLICY_UPGRADE_FOUR_EYES: boolean;
  POLICY_TENANT_SETTINGS: Record<string, PolicyTenantRules>;
}

export interface PolicyAdminSettings {
  readonly fourEyes: boolean;
  readonly tenants: Readonly<Record<string, PolicyTenantRules>>;
}

export const POLICY_ADMIN_SETTINGS = Symbol('POLICY_ADMIN_SETTINGS');

export function policyAdminSettingsFrom(config: Partial<PolicyAdminConfig>): PolicyAdminSettings {
  return { fourEyes: config.POLICY_UPGRADE_FOUR_EYES ?? true, tenants: config.POLICY_TENANT_SETTINGS ?? {} };
}

/**
 * Whether a tenant's policy changes need a second principal (an upgrade's approver other than its proposer, a
 * custom pack version's approver other than its registrant): its own setting, else the deployment's.
 */
export function policyFourEyesFor(settings: PolicyAdminSettings, tenantId: string): boolean {
  return settings.tenants[tenantId]?.upgradeFourEyes ?? settings.fourEyes;
}

export function policyAdminSettingsProvider(config: Partial<PolicyAdminConfig>): Provider {
  return { provide: POLICY_ADMIN_SETTINGS, useValue: policyAdminSettingsFrom(config) };
}
