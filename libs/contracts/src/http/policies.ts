import { z } from 'zod';
import { timestamp } from './fields';

/**
 * HTTP contracts of the policy pack resources (policy-registry validates with
 * them, the gateway publishes them). The full pack document is
 * `policyPackSchema` (policy/policy-pack.ts).
 */

/** Where a pack comes from: shipped with the product, or registered by a tenant. */
export const POLICY_PACK_SOURCES = ['built_in', 'custom'] as const;
export type PolicyPackSourceKind = (typeof POLICY_PACK_SOURCES)[number];

/** A policy pack id: lower-case letters, digits and dashes, e.g. `eu-gdpr`. */
export const PACK_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const SEMVER = /^\d+\.\d+\.\d+$/;

export const policyPackSummary = z
  .object({
    packId: z.string().describe('Stable id of the pack, e.g. `eu-gdpr`'),
    name: z.string(),
    jurisdiction: z.string().describe('The first jurisdiction code the pack covers, e.g. `EU` or `US-CA`'),
    jurisdictions: z.array(z.string()).describe('Every jurisdiction code the pack covers'),
    version: z.string().describe('The pack version (MAJOR.MINOR.PATCH) a request received today pins'),
    publishedAt: timestamp,
    effectiveFrom: z.iso.date().describe('The date from which the law applies as the pack describes it'),
    source: z.enum(POLICY_PACK_SOURCES),
    activatedFor: z
      .object({ jurisdiction: z.string(), workspaceId: z.string().nullable() })
      .nullable()
      .describe('For a custom pack: the jurisdiction and the workspace (null: the whole tenant) it is activated for; null for a built-in pack'),
  })
  .meta({ id: 'PolicyPackSummary', description: "A policy pack the caller's new requests use today: a built-in pack at the version in force under the tenant's pins, or an activated custom pack." });
export type PolicyPackSummary = z.infer<typeof policyPackSummary>;

export const policyPackList = z.array(policyPackSummary);

export const policyListQuery = z
  .strictObject({
    jurisdiction: z
      .string()
      .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/, 'must be a jurisdiction code such as DE, EU or US-CA')
      .transform((s) => s.toUpperCase())
      .optional()
      .describe("Only packs covering this jurisdiction code (any of a pack's codes; case-insensitive), e.g. `de`"),
    packId: z.string().regex(PACK_ID, 'must be a pack id such as eu-gdpr').optional().describe('Only the pack with this id'),
  })
  .meta({ id: 'PolicyListQuery' });
export type PolicyListQuery = z.infer<typeof policyListQuery>;

export const policyPackQuery = z
  .strictObject({
    version: z.string().regex(SEMVER, 'must be a version MAJOR.MINOR.PATCH').optional().describe('A published version of the pack; default the current one'),
  })
  .meta({ id: 'PolicyPackQuery' });
export type PolicyPackQuery = z.infer<typeof policyPackQuery>;

/** Whether a path segment can be a pack id at all: anything else is simply not found. */
export function isPackId(value: string): boolean {
  return PACK_ID.test(value);
}
