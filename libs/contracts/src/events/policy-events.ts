import { z } from 'zod';
import { timestamp } from '../http/fields';
import { RELEASE_TYPES, upgradeChange } from '../http/policy-admin';
import { policyPackSchema } from '../policy/policy-pack';
import type { EventTypeDefinition } from './event-catalog';
import { Topics } from './topics';

/**
 * Policy administration on `dsar.policy.v1`, keyed by `tenant:<tenantId>`
 * (their audit chain is the tenant's). The facts (upgrade proposed,
 * approved and applied; custom pack registered, approved, activated and
 * deactivated) are for people and the audit chain; `pack_set_changed`
 * carries the tenant's whole pack set after each change (event-carried
 * state), from which lifecycle-clock keeps the copy that intake pins from, so
 * intake never calls policy-registry.
 */

const fact = {
  tenantId: z.string().min(1),
  /** The principal that acted. */
  actor: z.string().min(1),
  occurredAt: timestamp,
};

export const upgradeProposedV1 = z.object({
  ...fact,
  proposalId: z.uuid(),
  repinOpenRequests: z.boolean(),
  changes: z.array(upgradeChange),
});
export type UpgradeProposedV1 = z.infer<typeof upgradeProposedV1>;

export const upgradeApprovedV1 = z.object({ ...fact, proposalId: z.uuid(), proposedBy: z.string().min(1) });
export type UpgradeApprovedV1 = z.infer<typeof upgradeApprovedV1>;

/** The pack set moved; with `repinOpenRequests`, lifecycle-clock re-pins each open request pinned to a `from` version. */
export const upgradeAppliedV1 = z.object({
  ...fact,
  proposalId: z.uuid(),
  repinOpenRequests: z.boolean(),
  changes: z.array(upgradeChange),
});
export type UpgradeAppliedV1 = z.infer<typeof upgradeAppliedV1>;

/** A custom pack version, whole: every service that computes deadlines keeps the document (it never changes). */
export const customPackRegisteredV1 = z.object({
  ...fact,
  name: z.string().min(1),
  jurisdiction: z.string().min(2),
  version: z.string().min(1),
  releaseType: z.enum(RELEASE_TYPES),
  changelog: z.string(),
  compatibilityNotes: z.string(),
  pack: policyPackSchema,
});
export type CustomPackRegisteredV1 = z.infer<typeof customPackRegisteredV1>;

/** A principal other than the registrant approved a registered version: under four eyes only such a version can be activated or offered by an upgrade. */
export const customPackApprovedV1 = z.object({
  ...fact,
  name: z.string().min(1),
  jurisdiction: z.string().min(2),
  version: z.string().min(1),
  registeredBy: z.string().min(1),
});
export type CustomPackApprovedV1 = z.infer<typeof customPackApprovedV1>;

export const customPackActivatedV1 = z.object({
  ...fact,
  workspaceId: z.string().min(1).nullable(),
  jurisdiction: z.string().min(2),
  name: z.string().min(1),
  version: z.string().min(1),
});
export type CustomPackActivatedV1 = z.infer<typeof customPackActivatedV1>;

export const customPackDeactivatedV1 = z.object({
  ...fact,
  workspaceId: z.string().min(1).nullable(),
  jurisdictions: z.array(z.string().min(2)),
});
export type CustomPackDeactivatedV1 = z.infer<typeof customPackDeactivatedV1>;

export const packActivation = z.object({
  workspaceId: z.string().min(1).nullable(),
  jurisdiction: z.string().min(2),
  name: z.string().min(1),
  version: z.string().min(1),
});
export type PackActivation = z.infer<typeof packActivation>;

/**
 * The tenant's whole pack set after a change. `revision` grows with every
 * change of the tenant, so a copy keeps the highest it has seen whatever
 * order the events arrive in.
 */
export const packSetChangedV1 = z.object({
  tenantId: z.string().min(1),
  revision: z.number().int().positive(),
  /** The built-in version the tenant upgraded each pack to; a pack not listed follows the deployment's default (the newest release). */
  builtInPins: z.record(z.string(), z.string()),
  activations: z.array(packActivation),
  occurredAt: timestamp,
});
export type PackSetChangedV1 = z.infer<typeof packSetChangedV1>;

export const PolicyEventTypes = {
  upgradeProposed: 'dsar.policy.upgrade_proposed.v1',
  upgradeApproved: 'dsar.policy.upgrade_approved.v1',
  upgradeApplied: 'dsar.policy.upgrade_applied.v1',
  customRegistered: 'dsar.policy.custom_registered.v1',
  customApproved: 'dsar.policy.custom_approved.v1',
  customActivated: 'dsar.policy.custom_activated.v1',
  customDeactivated: 'dsar.policy.custom_deactivated.v1',
  packSetChanged: 'dsar.policy.pack_set_changed.v1',
} as const;

const policyEvent = (type: string, schema: z.ZodType, description: string): EventTypeDefinition => ({
  type,
  topic: Topics.policy,
  schema,
  producer: 'policy-registry',
  description,
});

export const policyEventDefinitions: EventTypeDefinition[] = [
  policyEvent(PolicyEventTypes.upgradeProposed, upgradeProposedV1, "An upgrade of the tenant's pack set was proposed: each change with its changelog and the open requests it touches."),
  policyEvent(PolicyEventTypes.upgradeApproved, upgradeApprovedV1, 'An upgrade proposal was approved (by another principal than the proposer when the tenant requires four eyes).'),
  policyEvent(PolicyEventTypes.upgradeApplied, upgradeAppliedV1, 'An approved upgrade was applied: new requests use the new versions; with repinOpenRequests, open requests are re-pinned.'),
  policyEvent(PolicyEventTypes.customRegistered, customPackRegisteredV1, 'A tenant registered a version of a custom pack; the event carries the whole document.'),
  policyEvent(
    PolicyEventTypes.customApproved,
    customPackApprovedV1,
    'A registered custom pack version was approved by a principal other than its registrant; under four eyes only an approved version can be activated.',
  ),
  policyEvent(PolicyEventTypes.customActivated, customPackActivatedV1, 'A custom pack version became the one new requests of the tenant (or one workspace) in a jurisdiction pin.'),
  policyEvent(PolicyEventTypes.customDeactivated, customPackDeactivatedV1, 'Custom pack activations of a tenant (or workspace) ended; those jurisdictions use the built-in pack again.'),
  policyEvent(PolicyEventTypes.packSetChanged, packSetChangedV1, "The tenant's whole pack set after a change (built-in pins and custom activations): the copy intake pins from."),
];
